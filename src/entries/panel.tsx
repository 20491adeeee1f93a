import browser from 'webextension-polyfill';
import { createExtensionAdapter } from '../panel/adapter';
import { mountLens } from '../panel/app/mount-lens';
import { createExtensionLensAdapter } from '../panel/host/extension-lens-adapter';
import { CHROME_DEBUGGER_WARNING, FIREFOX_WEBREQUEST_EXPLAIN, firefoxPermissionRequest, permissionRequest, type PermissionsLike } from '../panel/host/fidelity-permission';
import { PORT } from '../shared/messages';

// Inside DevTools the panel watches the inspected tab. Opened as a plain extension page it is
// the standalone viewer: `?tab=<id>`, or a chooser of the tabs that have captures.
const devtools = browser.devtools?.inspectedWindow;
const query = new URLSearchParams(location.search).get('tab');
const tabId = devtools ? devtools.tabId : query ? Number(query) : null;

const capture = createExtensionAdapter({
  connect: () => browser.runtime.connect({ name: PORT.panel }),
  tabId,
  ...(devtools ? { reload: () => void devtools.reload({}) } : {}),
  // Chrome's debugger follows the inspected tab's Workers (src/capture/debugger).
  ...(devtools && __TARGET__ === 'chrome' ? { fidelity: { warning: CHROME_DEBUGGER_WARNING, request: permissionRequest(browser.permissions as unknown as PermissionsLike, ['debugger']) } } : {}),
  // Firefox's webRequest follows the watched tab, from DevTools or the standalone viewer (src/capture/webrequest).
  ...(__TARGET__ === 'firefox' ? { fidelity: { warning: '', explain: FIREFOX_WEBREQUEST_EXPLAIN, request: firefoxPermissionRequest(browser.permissions as unknown as Parameters<typeof firefoxPermissionRequest>[0]) } } : {}),
});
const adapter = createExtensionLensAdapter({
  capture,
  storage: browser.storage.local,
  panels: browser.devtools?.panels,
  prefersDark: () => matchMedia('(prefers-color-scheme: dark)').matches,
  doc: document,
});
mountLens({ adapter, container: document.getElementById('app')! });
