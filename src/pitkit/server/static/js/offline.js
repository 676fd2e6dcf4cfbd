// @ts-check
// Loaded only into a page the service worker served from its copy while the network
// was gone (sw.js adds it with the "You are offline" banner). It asks the server now
// and then (sooner when the browser says the network is back) and, once it answers,
// loads the page afresh, live. A browser's own online flag alone is not trusted: it
// stays true on a Wi-Fi without internet.
let wait = 2000;
let timer = 0;

async function tryServer() {
  clearTimeout(timer);
  try {
    const answer = await fetch('/healthz', {cache: 'no-store'});
    if (answer.ok) {
      location.reload();
      return;
    }
  } catch {
    // Still offline.
  }
  wait = Math.min(wait * 2, 30000);
  timer = window.setTimeout(tryServer, wait);
}

addEventListener('online', tryServer);
timer = window.setTimeout(tryServer, wait);
