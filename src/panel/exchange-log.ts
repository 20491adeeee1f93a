import type { RequestInfo, ResponseInfo, StreamEnd } from '../core/index';
import type { BackgroundProducer } from '../shared/messages';

/** One exchange as the panel holds it, so the analysis can be rebuilt from scratch. */
export interface LoggedExchange {
  /** `relay:stream` for the tap and the background's producers, `net:id` for the network panel. */
  key: string;
  source: 'tap' | BackgroundProducer | 'network';
  request: RequestInfo;
  response?: ResponseInfo;
  chunks: { time: number; data: string }[];
  end: StreamEnd;
  /** The network panel's error for the same request (e.g. `net::ERR_CONNECTION_RESET`). */
  networkError?: string;
}
