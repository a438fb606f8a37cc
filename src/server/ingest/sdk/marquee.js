/**
 * Marquee's browser script, served at /sdk/marquee.js: sends a site's events to the Marquee that serves
 * it. Plain script (no eval, no inline code, no added script tags), so it runs under a strict
 * content security policy that allows the Marquee origin in script-src and connect-src.
 *
 *   marquee.init('mqw_…');
 *   marquee.page();                                  // event "page-view" with the url
 *   marquee.track('purchase', { amount: 12 });
 *   marquee.identify('customer-42', { email: 'a@example.com' });
 *
 * Messages wait in a queue (kept in localStorage across pages) and go out in batches; a batch that
 * fails on the network, with 429 or 5xx is sent again later with the same ids, so it is stored once.
 * What the server refuses (a strict key's undeclared data, a value that does not fit) is named in the
 * console. Events and properties the workspace has not declared are kept unless the key is strict.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var endpoint = (script && script.src ? new URL(script.src).origin : location.origin) + '/ingest/v1/batch';
  var STORE = 'marquee:';
  var MAX_BATCH = 100;
  var MAX_QUEUE = 1000;
  var DELAY_MS = 1000;
  var MAX_ATTEMPTS = 8;
  var writeKey = null;
  var queue = load('queue') || [];
  var timer = null;
  var sending = false;
  var attempts = 0;

  function load(name) {
    try {
      return JSON.parse(localStorage.getItem(STORE + name));
    } catch {
      return null;
    }
  }

  function save(name, value) {
    try {
      if (value === null) localStorage.removeItem(STORE + name);
      else localStorage.setItem(STORE + name, JSON.stringify(value));
    } catch {
      // Storage may be full or off: the queue still lives in this page.
    }
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return (
      Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2)
    );
  }

  function anonymousId() {
    var id = load('anonymousId');
    if (!id) save('anonymousId', (id = newId()));
    return id;
  }

  function who() {
    var profileId = load('profileId');
    return profileId ? { profileId: profileId } : { anonymousId: anonymousId() };
  }

  function schedule(delay) {
    if (timer === null) timer = setTimeout(flush, delay);
  }

  function enqueue(message) {
    queue.push(message);
    if (queue.length > MAX_QUEUE) queue.splice(0, queue.length - MAX_QUEUE);
    save('queue', queue);
    if (writeKey) schedule(queue.length >= MAX_BATCH ? 0 : DELAY_MS);
  }

  /** Sends the oldest messages; on a failure worth retrying, again later (backing off), else drops them. */
  function flush(unloading) {
    timer = null;
    if (sending || !writeKey || !queue.length) return;
    var batch = queue.slice(0, MAX_BATCH);
    var body = JSON.stringify({ batch: batch });
    sending = true;
    // text/plain keeps it a simple request (no preflight); keepalive lets it finish as the page unloads.
    fetch(endpoint + '?writeKey=' + encodeURIComponent(writeKey), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: body,
      credentials: 'omit',
      keepalive: unloading === true && body.length < 60000,
    })
      .then(function (response) {
        if (response.status === 429 || response.status >= 500) throw new Error('retry');
        done(batch.length);
        return response.json().then(
          function (answer) {
            report(batch, response.status, answer);
          },
          function () {
            report(batch, response.status, null);
          },
        );
      })
      .catch(function () {
        sending = false;
        attempts += 1;
        if (attempts >= MAX_ATTEMPTS) return done(batch.length);
        schedule(Math.min(60000, DELAY_MS * Math.pow(2, attempts)) * (0.5 + Math.random() / 2));
      });
  }

  /** What the server refused, in the console: the whole request, each message and protected attributes kept. */
  function report(batch, status, answer) {
    if (!window.console) return;
    if (status >= 400) {
      var reason = answer && answer.error ? ': ' + answer.error.message : '';
      return console.warn('marquee: ' + batch.length + ' messages refused (' + status + ')' + reason);
    }
    if (!answer) return;
    (answer.errors || []).forEach(function (error) {
      console.warn('marquee: ' + describe(batch[error.index]) + ' refused: ' + error.message);
    });
    (answer.refusals || []).forEach(function (refusal) {
      console.warn(
        'marquee: ' +
          describe(batch[refusal.index]) +
          ' kept its ' +
          refusal.attributes.join(', ') +
          ': a write key may set a protected attribute on a profile without one, never change it',
      );
    });
  }

  function describe(message) {
    if (!message) return 'a message';
    return message.type === 'identify'
      ? 'identify "' + message.profileId + '"'
      : 'track "' + message.event + '"';
  }

  function done(count) {
    sending = false;
    attempts = 0;
    queue.splice(0, count);
    save('queue', queue);
    if (queue.length) schedule(0);
  }

  function track(event, properties) {
    var message = { type: 'track', event: event, id: newId(), at: new Date().toISOString() };
    if (properties) message.properties = properties;
    var sender = who();
    for (var key in sender) message[key] = sender[key];
    enqueue(message);
  }

  window.marquee = {
    init: function (key) {
      writeKey = key;
      if (queue.length) schedule(0);
    },
    page: function (properties) {
      var values = { url: location.href };
      for (var key in properties || {}) values[key] = properties[key];
      track('page-view', values);
    },
    track: track,
    identify: function (profileId, attributes) {
      var message = { type: 'identify', profileId: String(profileId), anonymousId: anonymousId() };
      if (attributes) message.attributes = attributes;
      save('profileId', message.profileId);
      enqueue(message);
    },
    /** Forgets who the visitor is (on sign-out): later events are a new anonymous visitor's. */
    reset: function () {
      save('profileId', null);
      save('anonymousId', null);
    },
    flush: function () {
      flush();
    },
  };

  addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'hidden') flush(true);
  });
})();
