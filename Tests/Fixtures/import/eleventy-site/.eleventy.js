// A fixture of our own in the shape real Eleventy blogs have: input in src/, images passed through.
module.exports = function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy("src/img");
  eleventyConfig.addPairedShortcode("callout", (content, title) => `<aside><b>${title}</b>${content}</aside>`);
  return { dir: { input: "src", output: "_site", includes: "_includes" } };
};
