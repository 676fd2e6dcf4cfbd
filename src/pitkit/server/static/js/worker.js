// @ts-check
// Every page loads this: it registers the service worker (sw.js) for the whole site,
// which keeps the app's shell for when the network is gone and shows pushed notices
// (docs/notices.md). Registering again is free: the browser keeps one worker.

/**
 * Register the service worker for the whole site (null: the browser has none).
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
export async function registerWorker() {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/sw.js', {scope: '/'});
  } catch {
    return null;  // an insecure origin (not https, not localhost): no worker, no notices
  }
}

registerWorker();
