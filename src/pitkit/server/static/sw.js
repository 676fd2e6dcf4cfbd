// pitkit's service worker (docs/notices.md), served at /sw.js so that its scope is the
// whole site. The server writes `SHELL` above this line: {version, pages, files}, the
// app's shell (the lobby, the player's page, what they load) and a digest of it.
//
// - The shell is kept for when the network is gone: a page of it is then served from
//   the copy with a banner saying so. Online, everything comes from the network as if
//   there were no worker (a page's files are fresh, the copy follows them). The API's
//   answers, tables and their state are never kept.
// - A push message (a notice: "your turn", "the match is over") becomes a
//   notification; a click on it opens its table, or brings its window forward.
/* global SHELL */
'use strict';

const CACHE = `pitkit-shell-${SHELL.version}`;
const OFFLINE = '<p class="banner offline-banner" role="status">You are offline: pitkit will reconnect</p>'
  + '<script type="module" src="/static/js/offline.js"></script>';

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...SHELL.pages, ...SHELL.files]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith('pitkit-shell-') && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const page = request.mode === 'navigate' && SHELL.pages.includes(url.pathname);
  // Anything not in the shell (the API, a table's page, replays) is the network's alone.
  if (!page && !SHELL.files.includes(url.pathname)) return;
  event.respondWith(networkFirst(request, page ? url.pathname : url.pathname + url.search, page));
});

/**
 * The network's answer, kept in the copy; without a network, the copy's.
 * @param {Request} request
 * @param {string} key what the copy keeps it under
 * @param {boolean} page a page of the shell: served with the offline banner
 */
async function networkFirst(request, key, page) {
  try {
    // A page is asked of the server every time (not of the HTTP cache, which could
    // answer offline without saying so); its scripts and styles as the browser likes.
    const response = await (page ? fetch(request.url, {cache: 'no-cache', credentials: 'same-origin'}) : fetch(request));
    if (response.ok && response.type === 'basic') {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
    }
    return response;
  } catch (error) {
    const kept = await caches.match(key, {ignoreSearch: page});
    if (!kept) throw error;
    return page ? offlinePage(kept) : kept;
  }
}

/**
 * A kept page with the banner that says the network is gone, and the script that
 * reloads it when the network is back.
 * @param {Response} kept
 */
async function offlinePage(kept) {
  const html = (await kept.text()).replace(/<body([^>]*)>/, (body) => body + OFFLINE);
  const headers = new Headers(kept.headers);
  headers.delete('content-length');  // the page is longer now
  return new Response(html, {status: 200, headers});
}

self.addEventListener('push', (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {body: event.data ? event.data.text() : ''};
  }
  const title = typeof notice.title === 'string' && notice.title ? notice.title : 'pitkit';
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof notice.body === 'string' ? notice.body : '',
    icon: '/static/img/icon-192.png',
    // One notification a table: the latest replaces the one before.
    tag: typeof notice.table === 'string' ? `pitkit-${notice.table}` : 'pitkit',
    renotify: true,
    data: {url: sitePath(notice.url)},
  }));
});

/**
 * A path on this site (a notice never opens another site).
 * @param {unknown} url
 */
function sitePath(url) {
  if (typeof url !== 'string') return '/';
  const target = new URL(url, self.location.origin);
  return target.origin === self.location.origin ? target.pathname + target.search + target.hash : '/';
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(sitePath(event.notification.data && event.notification.data.url), self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({type: 'window', includeUncontrolled: true});
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
