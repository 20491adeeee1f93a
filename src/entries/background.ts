import browser from 'webextension-polyfill';
import { createRouter, type RouterPort } from '../capture/router';

const router = createRouter({
  worker: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  // Reaches the relay of every frame; a tab without our content scripts just rejects it.
  broadcast: (tabId, message) => void browser.tabs.sendMessage(tabId, message).catch(() => undefined),
});

browser.runtime.onConnect.addListener((port) => router.connect(port as unknown as RouterPort));
browser.tabs.onRemoved.addListener((tabId) => router.removeTab(tabId));
