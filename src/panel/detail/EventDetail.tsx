import { useLens } from '../app/lens-context';
import { clip, shortId, visibleLine } from '../text/visible';
import { ClippedText } from './ClippedText';
import { CopyButton } from './CopyButton';
import { curlOf } from './curl';
import { DetailFindings } from './DetailFindings';
import { HeaderTable } from './HeaderTable';
import { prettyJson, rawSse } from './raw-sse';
import { StreamDetail } from './StreamDetail';

/**
 * Everything about the selected event: raw SSE, JSON with its role, headers, timing, stream. A
 * stream chosen on its own (a resume answered with no event) shows the stream instead.
 */
export function EventDetail() {
  const lens = useLens();
  const mark = lens.selection.mark.value;
  const source = lens.source.value;
  const session = lens.session.value;
  const record = mark ? source.events(mark.stream).get(mark.event) : undefined;
  const stream = lens.selection.stream.value;
  if (!mark && stream !== null && session) return <StreamDetail stream={stream} />;
  if (!mark || !record || !session) {
    return (
      <section class="detail detail-empty" data-testid="event-detail-empty" aria-label="Event detail" tabIndex={-1}>
        <p class="muted">Select an event on the timeline (click, or focus it and use the arrow keys), in the table, or through a finding to see its raw SSE, JSON, headers and timing.</p>
      </section>
    );
  }
  const report = session.streams.find((s) => s.index === mark.stream);
  const exchange = source.exchange(mark.stream);
  const findings = session.findings.filter((f) => f.stream === mark.stream && f.event === mark.event);
  const pretty = prettyJson(record.data);
  const sinceRequest = exchange ? record.time - exchange.startTime : undefined;
  return (
    <section class="detail" data-testid="event-detail" data-stream={mark.stream} data-event={mark.event} aria-label="Event detail" tabIndex={-1}>
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
          #{mark.stream} {lens.requests.value.label(session, mark.stream)}: {report?.method} {visibleLine(clip(report?.url ?? '', 300))} → {report?.status || '-'},{' '}
          {exchange?.end.state ?? report?.end}
          {report?.lastEventId != null ? `, resumes from ${shortId(report.lastEventId, 24)}` : ''}
        </dd>
      </dl>
      <DetailFindings findings={findings} />
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
