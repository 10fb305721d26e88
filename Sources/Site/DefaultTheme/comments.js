// Refreshes the comments under a post while the page is open. Optional: the page already
// lists every comment it had when it was built. Comment bodies were sanitized by the server.
(function () {
  var section = document.querySelector("[data-comments]");
  if (!section || !window.fetch) return;
  var list = section.querySelector(".comments"), heading = section.querySelector("h2");
  var etag = null, shown = list.children.length;
  function text(tag, className, value) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    node.textContent = value;
    return node;
  }
  function render(comment) {
    var item = document.createElement("li");
    item.className = "comment depth-" + Math.min(comment.depth, 5) + " p-comment h-entry";
    item.id = comment.anchor;
    var meta = document.createElement("header");
    meta.className = "comment-meta";
    var card = document.createElement("span");  // the template's p-author h-card
    card.className = "p-author h-card";
    if (comment.author.avatar) {
      var img = document.createElement("img");
      img.className = "avatar u-photo"; img.src = comment.author.avatar; img.alt = ""; img.width = 40; img.height = 40;
      img.referrerPolicy = "no-referrer";
      card.appendChild(img);
    } else {
      var initial = text("span", "avatar no-avatar", ((comment.author.name || "").match(/[\p{L}\p{N}]/u) || ["?"])[0].toUpperCase());
      initial.setAttribute("aria-hidden", "true");
      card.appendChild(initial);
    }
    var author = text("a", "author p-name u-url", comment.author.name);
    author.href = comment.author.url; author.rel = "nofollow ugc";
    card.appendChild(author);
    meta.appendChild(card);
    meta.appendChild(document.createTextNode(" "));
    meta.appendChild(text("span", "handle", comment.author.handle));
    meta.appendChild(document.createTextNode(" · "));
    var link = text("a", "permalink u-url", new Date(comment.published).toLocaleString());
    link.href = comment.url; link.rel = "nofollow ugc";
    meta.appendChild(link);
    item.appendChild(meta);
    var body = document.createElement("div");
    body.className = "comment-body e-content";
    body.innerHTML = comment.content;  // sanitized by an allowlist on the server
    if (comment.summary) {
      var details = document.createElement("details");
      details.className = "content-warning";
      details.appendChild(text("summary", null, comment.summary));
      details.appendChild(body);
      item.appendChild(details);
    } else {
      item.appendChild(body);
    }
    return item;
  }
  function refresh() {
    if (document.hidden) return;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(section.getAttribute("data-comments"), { headers: headers }).then(function (response) {
      if (response.status !== 200) return null;
      etag = response.headers.get("ETag");
      return response.json();
    }).then(function (data) {
      if (!data || data.comments.length === shown) return;
      shown = data.comments.length;
      list.textContent = "";
      data.comments.forEach(function (comment) { list.appendChild(render(comment)); });
      heading.textContent = data.heading;
    }).catch(function () {});
  }
  setInterval(refresh, 20000);
  document.addEventListener("visibilitychange", refresh);
})();
