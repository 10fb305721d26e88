module.exports = {
  eleventyComputed: {
    permalink: (data) => {
      return data.draft ? false : `/s/${data.page.date.getFullYear()}/${data.page.fileSlug}/`;
    },
  },
};
