/**
 * core-floor: what any analysis that applies the rules must do per event, each part timed alone
 * with the core's own code over the core rows' 100 MB, beside core-vs-framing's baseline. Not a
 * row of the suite: it asks whether that row's target (the analysis within 2x of framing alone)
 * is within reach at all. The parts:
 *
 * - decode: the chunks to text (Utf8Chunks), as the baseline does too;
 * - match: one sticky regex per block, the learned block template (block-template.ts). It frames
 *   the block and checks its JSON in one pass: the malformed-event rule needs every payload
 *   checked, and JSON.parse costs more than the regex;
 * - ids: every event id into the session's IdIndex, cut out and hashed where it stands in the
 *   text, as the core does (the duplicate-event-id rule);
 * - rows: every event appended to its stream's event table (what the report, the timeline and
 *   the resume rules read), trimmed when its stream ends.
 *
 * Streams are decoded and joined before the timed parts, so no block straddles two texts, and
 * the parts leave out what ties them together (the record object, the sequence rule, findings).
 * Their sum is a floor, not an estimate.
 *
 *   npm run bench:floor [-- --smoke]   (the code as it ships: a vite bundle under plain node, see bench/run.ts)
 */
import { compilePlan } from '../src/core/read/block-plan';
import { createBlockTemplates } from '../src/core/read/block-template';
import { createFactReader, emptyFacts } from '../src/core/read/facts';
import { keepTreeFor } from '../src/core/read/message-reads';
import type { ChunkPlace } from '../src/core/read/sse';
import { EventColumns } from '../src/core/store/event-table';
import { IdIndex } from '../src/core/store/id-index';
import { RowBuffers } from '../src/core/store/row-buffers';
import { createStringTable } from '../src/core/store/string-table';
import { TextStore } from '../src/core/store/text-store';
import { Utf8Chunks } from '../src/core/read/utf8-chunks';
import { frameAll } from './core';
import type { BenchScale } from './row';
import { bestInTurns, mb } from './timing';
import { generateTraffic, type Traffic } from './traffic';

/** As the core rows' ingest (bench/core.ts): 100 MB, the best of 8 turns. */
const SIZES = {
  full: { bytes: 100 * 1024 * 1024, runs: 8 },
  smoke: { bytes: 2 * 1024 * 1024, runs: 2 },
} as const;

/** CPU ms of framing alone and of each part; `matched` events the parts took. */
export interface Floor {
  events: number;
  bytes: number;
  matched: number;
  runs: number;
  frame: number;
  decode: number;
  match: number;
  ids: number;
  rows: number;
}

function decodeAll(traffic: Traffic): number {
  let chars = 0;
  for (const stream of traffic.streams) {
    const decoder = new Utf8Chunks();
    for (const chunk of stream.chunks) chars += decoder.decode(chunk.data as Uint8Array).length;
  }
  return chars;
}

/** Where each matched block's id stands in its stream's text. */
interface Blocks {
  /** Per block: its stream, and its id's start and length in that stream's text. */
  stream: Int32Array;
  idStart: Int32Array;
  idLength: Int32Array;
}

export function measureFloor(scale: BenchScale): Floor {
  const { bytes, runs } = SIZES[scale];
  const traffic = generateTraffic(bytes);
  const texts = traffic.streams.map((stream) => {
    const decoder = new Utf8Chunks();
    return stream.chunks.map((chunk) => decoder.decode(chunk.data as Uint8Array)).join('');
  });
  const templates = createBlockTemplates(keepTreeFor([]), (spec) => compilePlan(spec, [], createFactReader([])));
  // A template is compiled on its second sighting: show it the first stream's blocks twice. (A
  // tool result's payload holds an array, which no template learns: those blocks are left out.)
  for (let sighting = 0; sighting < 2; sighting++) {
    for (let at = 0; at < texts[0]!.length; ) {
      const end = texts[0]!.indexOf('\n\n', at) + 2;
      const raw = texts[0]!.slice(at, end);
      templates.learn(raw, JSON.parse(raw.slice(raw.indexOf('data: ') + 'data: '.length, -2)));
      at = end;
    }
  }

  // A block no template matches is stepped over, uncounted: the floor leaves it out.
  const matchAll = (keep?: Blocks): number => {
    let matched = 0;
    texts.forEach((text, s) => {
      for (let at = 0; at < text.length; ) {
        const block = templates.match(text, at);
        if (!block) {
          at = text.indexOf('\n\n', at) + 2;
          continue;
        }
        if (keep && block.id !== undefined) {
          keep.stream[matched] = s;
          keep.idStart[matched] = block.idStart;
          keep.idLength[matched] = block.id.length;
        }
        matched++;
        at = block.end;
      }
    });
    return matched;
  };
  const blocks: Blocks = { stream: new Int32Array(traffic.events), idStart: new Int32Array(traffic.events), idLength: new Int32Array(traffic.events) };
  const events = matchAll(blocks);

  const addIds = (): number => {
    const index = new IdIndex(() => undefined);
    for (let i = 0; i < events; i++) {
      const text = texts[blocks.stream[i]!]!;
      const start = blocks.idStart[i]!;
      index.add(text.slice(start, start + blocks.idLength[i]!), blocks.stream[i]!, i, text, start);
    }
    return index.size;
  };

  const appendRows = (): number => {
    const strings = createStringTable();
    const store = new TextStore();
    const buffers = new RowBuffers();
    const facts = { ...emptyFacts('progress'), method: 'notifications/progress', progressToken: '"tok"', seq: { key: 'app_seq', value: 0, kind: 'app_seq' as const } };
    // The id stands in the chunk too (its length does not matter to the table).
    const head = { time: 0, id: 'stream-0-event-id', event: 'message' };
    // A borrowed chunk, as a block template gives it: no text is copied.
    const place: ChunkPlace = { text: '', chunk: '', dataAt: 0, dataLength: 200, idAt: 0 };
    let rows = 0;
    let table: EventColumns | undefined;
    for (let i = 0; i < events; i++) {
      if (i === 0 || blocks.stream[i] !== blocks.stream[i - 1]) {
        table?.trim();
        table = new EventColumns(strings, store, buffers);
        place.text = place.chunk = texts[blocks.stream[i]!]!;
      }
      head.time = i;
      facts.seq.value = i;
      place.idAt = blocks.idStart[i]!;
      place.dataAt = place.idAt + 64;
      table!.append(head, place, facts);
      rows++;
    }
    table?.trim();
    return rows;
  };

  const [frame, decode, match, ids, rows] = bestInTurns(runs, [() => frameAll(traffic), () => decodeAll(traffic), () => matchAll(), () => addIds(), () => appendRows()]) as [number, number, number, number, number];
  return { events: traffic.events, bytes: traffic.bytes, matched: events, runs, frame, decode, match, ids, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = measureFloor(process.argv.includes('--smoke') ? 'smoke' : 'full');
  const floor = f.decode + f.match + f.ids + f.rows;
  const ms = (value: number): string => `${value.toFixed(0)} ms`;
  console.log(`${f.events} events, ${mb(f.bytes)}; the parts take the ${f.matched} a template matched. CPU time, best of ${f.runs} turns.`);
  console.log(`framing alone (core-vs-framing's baseline): ${ms(f.frame)}; the target allows the analysis ${ms(2 * f.frame)}`);
  console.log(`decode ${ms(f.decode)} + match ${ms(f.match)} + ids ${ms(f.ids)} + rows ${ms(f.rows)} = ${ms(floor)}, ${(floor / f.frame).toFixed(2)}x framing`);
}
