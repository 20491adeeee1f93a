import browser from 'webextension-polyfill';
import { watchNetwork, type NetworkEvents } from '../capture/devtools-network';
import { createPortClient } from '../shared/port-client';
import { PORT, make } from '../shared/messages';

/** Finished exchanges held while the worker restarts. */
const MAX_DEVTOOLS_QUEUE = 256;
// Chrome resolves the page from the extension root; Firefox from this document. Both take this.
const PANEL_PAGE = __TARGET__ === 'firefox' ? '/src/entries/panel.html' : 'src/entries/panel.html';

const tabId = browser.devtools.inspectedWindow.tabId;
void browser.devtools.panels.create('MCP Streams', '/icon-32.png', PANEL_PAGE);

let dropped = 0;
const port = createPortClient({
  connect: () => browser.runtime.connect({ name: PORT.devtools }),
  hello: () => make('devtools-hello', { tabId }),
  maxQueue: MAX_DEVTOOLS_QUEUE,
  onMessage: () => undefined,
  onDrop: () => void (dropped += 1),
  // Eager: while DevTools is open the tab's taps send live (see attachedOf in router.ts).
  eager: true,
});
port.start();
// A new document in the inspected tab: the panel marks it between the sessions before and after.
browser.devtools.network.onNavigated.addListener((url) => port.send(make('devtools-navigated', { tabId, url, time: Date.now() })));
watchNetwork(browser.devtools.network as unknown as NetworkEvents, __TARGET__ === 'firefox' ? 'firefox' : 'chrome', (exchange) => port.send(make('devtools-exchange', { tabId, exchange, dropped })));
