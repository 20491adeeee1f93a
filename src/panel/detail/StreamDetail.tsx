import { useLens } from '../app/lens-context';
import { plural } from '../text/plural';
import { clip, shortId, visibleLine } from '../text/visible';
import { CopyButton } from './CopyButton';
import { curlOf } from './curl';
import { DetailFindings } from './DetailFindings';
import { HeaderTable } from './HeaderTable';

/**
 * A stream as a whole, for what has no event to show: a resume answered 409 or 404, or with a
 * 200 and nothing in it, a body the recorder did not keep. Its request, response and end.
 */
export function StreamDetail({ stream }: { stream: number }) {
  const lens = useLens();
  const session = lens.session.value!;
  const report = session.streams.find((s) => s.index === stream);
  const exchange = lens.source.value.exchange(stream);
  if (!report) return null;
  const findings = session.findings.filter((f) => f.stream === stream);
  const resume = session.resumes.find((r) => r.stream === stream);
  const end = exchange?.end.state ?? report.end;
  return (
    <section class="detail" data-testid="stream-detail" data-stream={stream} aria-label="Stream detail" tabIndex={-1}>
      <h2>
        Stream #{stream} <span class="role">{lens.requests.value.label(session, stream)}</span>
      </h2>
      <dl class="facts">
        <dt>request</dt>
        <dd class="untrusted-line">
          {report.method} {visibleLine(clip(report.url, 300))}
        </dd>
        <dt>response</dt>
        <dd>{report.status === 0 ? 'none' : report.status}</dd>
        <dt>end</dt>
        <dd>
          {end}
          {exchange?.end.error ? ` (${visibleLine(clip(exchange.end.error, 200))})` : ''}
        </dd>
        <dt>events</dt>
        <dd>{report.body === 'absent' ? 'body not captured: the recorder kept none of it' : plural(report.events, 'event')}</dd>
        {resume ? (
          <>
            <dt>resume</dt>
            <dd class="untrusted-line">
              of {resume.of === null ? 'a stream never seen' : `#${resume.of}`} from Last-Event-ID {shortId(resume.lastEventId, 40)}: {resume.verdict}
            </dd>
          </>
        ) : null}
      </dl>
      <DetailFindings findings={findings} />
      {exchange ? (
        <>
          <div class="detail-actions">
            <CopyButton label="Copy request as cURL" testId="copy-curl" text={() => curlOf(exchange)} />
          </div>
          <HeaderTable caption="Request headers" headers={exchange.headers} />
          <HeaderTable caption="Response headers" headers={exchange.responseHeaders} />
        </>
      ) : null}
    </section>
  );
}
