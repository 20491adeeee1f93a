import { useLens } from '../app/lens-context';
import { explain } from '../findings/explain';
import { clip, shortId, visibleLine } from '../text/visible';
import { ClippedText } from './ClippedText';
import { CopyButton } from './CopyButton';
import { curlOf } from './curl';
import { HeaderTable } from './HeaderTable';
import { prettyJson, rawSse } from './raw-sse';

/** Everything about the selected event: raw SSE, JSON with its role, headers, timing, stream. */
export function EventDetail() {
  const lens = useLens();
  const mark = lens.selection.mark.value;
  const source = lens.source.value;
  const session = lens.session.value;
  const record = mark ? source.events(mark.stream).get(mark.event) : undefined;
  if (!mark || !record || !session) {
    return (
      <section class="detail detail-empty" data-testid="event-detail-empty" aria-label="Event detail">
        <p class="muted">Select an event on the timeline (click, or focus it and use the arrow keys), in a stream's list, or through a finding to see its raw SSE, JSON, headers and timing.</p>
      </section>
    );
  }
  const stream = session.streams.find((s) => s.index === mark.stream);
  const exchange = source.exchange(mark.stream);
  const findings = session.findings.filter((f) => f.stream === mark.stream && f.event === mark.event);
  const pretty = prettyJson(record.data);
  const sinceRequest = exchange ? record.time - exchange.startTime : undefined;
  return (
    <section class="detail" data-testid="event-detail" data-stream={mark.stream} data-event={mark.event} aria-label="Event detail">
      <h2>
        Event {mark.event} of stream #{mark.stream} <span class={`role role-${record.role}`}>{record.role}</span>
      </h2>
      <dl class="facts">
        <dt>id</dt>
        <dd class="untrusted-line">{record.id === undefined ? '(none)' : visibleLine(clip(record.id, 500))}</dd>
        {record.method ? (<><dt>method</dt><dd class="untrusted-line">{visibleLine(clip(record.method, 200))}</dd></>) : null}
        {record.seq ? (<><dt>sequence</dt><dd>{record.seq.key} = {record.seq.value}</dd></>) : null}
        <dt>arrived</dt>
        <dd>
          {new Date(record.time).toISOString()}
          {sinceRequest === undefined ? '' : ` (+${sinceRequest.toFixed(1)} ms after the request)`}
        </dd>
        <dt>stream</dt>
        <dd class="untrusted-line">
          #{mark.stream} {stream?.method} {visibleLine(clip(stream?.url ?? '', 300))} → {stream?.status || '-'}, {exchange?.end.state ?? stream?.end}
          {stream?.lastEventId != null ? `, resumes from ${shortId(stream.lastEventId, 24)}` : ''}
        </dd>
      </dl>
      {findings.length > 0 ? (
        <ul class="detail-findings">
          {findings.map((f, i) => (
            <li key={i} class={`finding-${f.severity}`}>
              <code>{f.code}</code>: {explain(f.code)}
            </li>
          ))}
        </ul>
      ) : null}
      <div class="detail-actions">
        <CopyButton label="Copy raw event" testId="copy-raw" text={() => rawSse(record)} />
        {exchange ? <CopyButton label="Copy request as cURL" testId="copy-curl" text={() => curlOf(exchange)} /> : null}
      </div>
      <h3>Raw SSE</h3>
      <ClippedText text={rawSse(record)} label="Raw SSE event" />
      <h3>JSON{record.role === 'malformed' ? ' (not JSON-RPC)' : ` (${record.role})`}</h3>
      {pretty === undefined ? <p class="muted">The data is not JSON.</p> : <ClippedText text={pretty} label="Pretty-printed JSON" />}
      {exchange ? (
        <>
          <HeaderTable caption="Request headers" headers={exchange.headers} />
          <HeaderTable caption="Response headers" headers={exchange.responseHeaders} />
        </>
      ) : null}
    </section>
  );
}
