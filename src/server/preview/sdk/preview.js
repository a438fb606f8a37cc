/**
 * Marquee's live preview script, served at /sdk/preview.js: a site's page includes it to show the draft
 * an editor is writing, in the editor's preview pane. Plain script (no eval, no inline code, no added
 * script or style tags), so it runs under a strict content security policy that allows the Marquee
 * origin in script-src.
 *
 *   <script src="https://marquee.example.com/sdk/preview.js"></script>
 *   marqueePreview.subscribe(function (item) { render(item); });   // each unsaved version, as delivered
 *   el.setAttribute('data-marquee-edit', marqueePreview.edit(item, 'blocks.2.title')['data-marquee-edit']);
 *   '<h1 ' + marqueePreview.attrs(item, 'title') + '>'               // for HTML rendered as text
 *   marqueePreview.reloadOnSave();                                   // server-rendered pages
 *   fetch(api + '?preview=draft', { headers: { authorization: 'Bearer ' + marqueePreview.token() } });
 *
 * Messages go to the Marquee origin only (the script tag's data-marquee-origin, else its src's origin),
 * and only messages from that origin are read. In the pane, elements carrying data-marquee-edit are
 * outlined on hover and a click on one asks the editor to focus that field.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var appOrigin =
    (script && script.getAttribute('data-marquee-origin')) ||
    (script && script.src ? new URL(script.src).origin : location.origin);
  var workspace = (script && script.getAttribute('data-marquee-workspace')) || '';
  var ATTRIBUTE = 'data-marquee-edit';
  var listeners = [];
  var latest = null;
  var reloads = false;
  // Outlines and clicks belong to the pane: they start with the editor's first message.
  var connected = false;
  var outline = null;
  var hovered = null;

  function post(message) {
    if (window.parent !== window) window.parent.postMessage(message, appOrigin);
  }

  /** The attribute's value for a path: the editor's own (`_editInfo`), or built like it. */
  function editValue(item, path) {
    var info = (item && item._editInfo) || {};
    if (Object.prototype.hasOwnProperty.call(info, path)) return info[path];
    // `{ws}:{schema}:{id}:{path}`: another path of the same item shares everything before its path.
    for (var known in info) {
      var value = info[known];
      if (typeof value === 'string' && value.slice(-known.length - 1) === ':' + known)
        return value.slice(0, value.length - known.length) + path;
    }
    return [workspace, item && item.schema, item && item.id, path].join(':');
  }

  function escapeAttribute(value) {
    return String(value)
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;');
  }

  /** `{ws}:{schema}:{id}:{path}` → its parts; the path may hold no colon, the others none either. */
  function parse(value) {
    var parts = String(value).split(':');
    if (parts.length < 4) return null;
    return { workspace: parts[0], schema: parts[1], id: parts[2], path: parts.slice(3).join(':') };
  }

  function marked(node) {
    while (node && node.nodeType !== 1) node = node.parentNode;
    return node && node.closest ? node.closest('[' + ATTRIBUTE + ']') : null;
  }

  function showOutline(element) {
    if (!outline) {
      outline = document.createElement('div');
      outline.setAttribute('data-marquee-outline', '');
      outline.setAttribute('aria-hidden', 'true');
      var style = outline.style;
      style.position = 'fixed';
      style.pointerEvents = 'none';
      style.zIndex = '2147483647';
      style.border = '2px solid #4263eb';
      style.borderRadius = '3px';
      style.background = 'rgba(66, 99, 235, 0.08)';
      style.boxSizing = 'border-box';
      document.body.appendChild(outline);
    }
    var box = element.getBoundingClientRect();
    outline.style.display = 'block';
    outline.style.top = box.top - 2 + 'px';
    outline.style.left = box.left - 2 + 'px';
    outline.style.width = box.width + 4 + 'px';
    outline.style.height = box.height + 4 + 'px';
  }

  function hideOutline() {
    hovered = null;
    if (outline) outline.style.display = 'none';
  }

  function handleOver(event) {
    if (!connected) return;
    var element = marked(event.target);
    if (!element) return hideOutline();
    hovered = element;
    showOutline(element);
  }

  function handleClick(event) {
    if (!connected) return;
    var element = marked(event.target);
    if (!element) return;
    var target = parse(element.getAttribute(ATTRIBUTE));
    if (!target) return;
    // In the pane a click edits: links and buttons of the page do not act.
    event.preventDefault();
    event.stopPropagation();
    post({ type: 'marquee:edit', path: target.path, schema: target.schema, id: target.id });
  }

  function handleMessage(event) {
    if (event.origin !== appOrigin || event.source !== window.parent) return;
    var message = event.data;
    if (!message || typeof message.type !== 'string') return;
    connected = true;
    if (message.type === 'marquee:item' && message.item) {
      latest = message.item;
      listeners.slice().forEach(function (listener) {
        listener(latest);
      });
      if (hovered) showOutline(hovered);
    } else if (message.type === 'marquee:saved' && reloads) {
      location.reload();
    }
  }

  window.marqueePreview = {
    /** Calls `listener` with each item the editor sends (at once with the last one); answers unsubscribe. */
    subscribe: function (listener) {
      listeners.push(listener);
      if (latest) listener(latest);
      return function () {
        var index = listeners.indexOf(listener);
        if (index >= 0) listeners.splice(index, 1);
      };
    },
    /** The attributes marking an element as `path` of `item`, to spread on it. */
    edit: function (item, path) {
      var attributes = {};
      attributes[ATTRIBUTE] = editValue(item, path);
      return attributes;
    },
    /** The same as an HTML attribute string, for pages that render HTML as text. */
    attrs: function (item, path) {
      return ATTRIBUTE + '="' + escapeAttribute(editValue(item, path)) + '"';
    },
    /** Reloads the page (its URL keeps the token) after each save in the editor. */
    reloadOnSave: function () {
      reloads = true;
    },
    /** The preview token the editor put in the page's URL, or null. */
    token: function () {
      return new URLSearchParams(location.search).get('previewToken');
    },
  };

  addEventListener('message', handleMessage);
  document.addEventListener('mouseover', handleOver, true);
  document.addEventListener('click', handleClick, true);
  addEventListener(
    'scroll',
    function () {
      if (hovered) showOutline(hovered);
    },
    true,
  );
  post({ type: 'marquee:ready', version: 1 });
})();
