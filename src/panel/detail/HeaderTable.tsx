import type { Header } from '../../core/index';
import { clip, visibleLine } from '../text/visible';

const VALUE_CHARS = 2_000;

export function HeaderTable({ headers, caption }: { headers: readonly Header[]; caption: string }) {
  if (headers.length === 0) return <p class="muted">{caption}: none recorded.</p>;
  return (
    <table class="headers">
      <caption>{caption}</caption>
      <tbody>
        {headers.map((h, i) => (
          <tr key={i}>
            <th scope="row">{visibleLine(clip(h.name, 200))}</th>
            <td>{visibleLine(clip(h.value, VALUE_CHARS))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
