module.exports = {
  tags: "notes",
  eleventyComputed: {
    permalink: (data) => `/notes/${data.page.fileSlug}/`,
  },
};
