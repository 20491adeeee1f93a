import browser from 'webextension-polyfill';
import { createRouter, type RouterPort } from '../capture/router';
import { make } from '../shared/messages';

const router = createRouter({
  worker: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  // Every frame's relay hears this; frames without a tap simply do not answer.
  poll: (tabId) => void browser.tabs.sendMessage(tabId, make('bg-poll', {})).catch(() => undefined),
});

browser.runtime.onConnect.addListener((port) => router.connect(port as unknown as RouterPort));
browser.tabs.onRemoved.addListener((tabId) => router.removeTab(tabId));
