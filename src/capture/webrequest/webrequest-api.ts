/**
 * The slice of Firefox's `browser.webRequest` (MV3, with `webRequest`, `webRequestBlocking`,
 * `webRequestFilterResponse` and host permission) the capture uses; tests pass a fake.
 */

export interface HttpHeader {
  name: string;
  value?: string;
}

/** What every webRequest event says about a request (the fields read here). */
export interface RequestDetails {
  requestId: string;
  url: string;
  method: string;
  tabId: number;
  /** Epoch ms. */
  timeStamp: number;
  type?: string;
  /** The document the request belongs to; a Worker's requests name the page that started it. */
  documentUrl?: string;
  originUrl?: string;
  statusCode?: number;
  requestHeaders?: HttpHeader[];
  responseHeaders?: HttpHeader[];
  requestBody?: { raw?: { bytes?: ArrayBuffer }[] } | null;
  error?: string;
}

/** `webRequest.StreamFilter`: it holds the response until we write it on and close it. */
export interface StreamFilter {
  ondata: ((event: { data: ArrayBuffer }) => void) | null;
  onstop: (() => void) | null;
  onerror: (() => void) | null;
  readonly error: string;
  write(data: ArrayBuffer): void;
  close(): void;
  disconnect(): void;
}

export type Listener = (details: RequestDetails) => void;

export interface WebRequestEvent {
  addListener(fn: Listener, filter: { urls: string[]; tabId?: number }, extraInfoSpec?: string[]): void;
  removeListener(fn: Listener): void;
  hasListener(fn: Listener): boolean;
}

export interface WebRequestApi {
  onBeforeRequest: WebRequestEvent;
  onBeforeSendHeaders: WebRequestEvent;
  onHeadersReceived: WebRequestEvent;
  onCompleted: WebRequestEvent;
  onErrorOccurred: WebRequestEvent;
  filterResponseData(requestId: string): StreamFilter;
}
