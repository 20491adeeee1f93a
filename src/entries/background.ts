import browser from 'webextension-polyfill';
import { chromeFidelity } from '../capture/debugger/chrome-fidelity';
import type { DebuggerApi } from '../capture/debugger/tab-debugger';
import { createRouter, type RouterPort } from '../capture/router';
import { createSessionHistory, type SessionArea } from '../capture/session-history';
import { firefoxFidelity } from '../capture/webrequest/firefox-fidelity';
import type { WebRequestApi } from '../capture/webrequest/webrequest-api';

const worker = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const fidelity =
  __TARGET__ === 'chrome'
    ? chromeFidelity(() => (globalThis as { chrome?: { debugger?: DebuggerApi } }).chrome?.debugger, {
        worker,
        deliver: (...args) => router.captured('debugger', ...args),
        status: (...args) => router.fidelityStatus(...args),
      })
    : // Firefox: webRequest with a StreamFilter on each MCP response (src/capture/webrequest).
      firefoxFidelity(() => (globalThis as { browser?: { webRequest?: WebRequestApi } }).browser?.webRequest, {
        worker,
        deliver: (...args) => router.captured('network-filter', ...args),
        status: (...args) => router.fidelityStatus(...args),
        tapOpened: (...args) => router.tapOpened(...args),
        tabUrl: (tabId) => browser.tabs.get(tabId).then((t) => t.url),
      });
const router = createRouter({
  worker,
  // Reaches the relay of every frame; a tab without our content scripts just rejects it.
  broadcast: (tabId, message) => void browser.tabs.sendMessage(tabId, message).catch(() => undefined),
  // The tabs' histories outlive the worker there (Chrome 102+, Firefox 115+), not the browser.
  history: createSessionHistory(browser.storage.session as unknown as SessionArea),
  ...(fidelity ? { fidelity } : {}),
});

browser.runtime.onConnect.addListener((port) => router.connect(port as unknown as RouterPort));
browser.tabs.onRemoved.addListener((tabId) => router.removeTab(tabId));
