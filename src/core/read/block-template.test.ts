import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBlockTemplates, type BlockMatch, type TemplateSpec } from './block-template';
import { stringOf } from './json-shapes';
import { keepTreeFor } from './message-reads';
import { analyseBody } from '../../../test/support/fixtures';

const sdkBlock = (id: string, value: unknown): string => `event: message\nid: ${id}\ndata: ${JSON.stringify(value)}\n\n`;
const progress = (step: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: step, _meta: { app_seq: step } } });

/** A plan that gives each captured leaf's path and text: what a template captures of a payload. */
type Leaves = (groups: RegExpExecArray) => Record<string, string>;
const leafPlan = (spec: TemplateSpec): Leaves => (groups) => Object.fromEntries(spec.leaves.map((leaf, i) => [leaf.path.join('.'), stringOf(groups[spec.firstGroup + i]!)]));
/** Templates for the leaves the readers read (see message-reads.ts). */
const readable = () => createBlockTemplates(keepTreeFor([]), leafPlan);
const payloadOf = (text: string, block: BlockMatch<Leaves>) => text.slice(block.dataStart, block.end - 2);

/** Templates that have seen `raw` (with its payload) twice. */
function taught(...raws: string[]) {
  const templates = readable();
  for (const raw of [...raws, ...raws]) templates.learn(raw, JSON.parse(raw.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
  return templates;
}

describe('block templates', () => {
  it('learn a layout on its second sighting and read the same blocks, with only the parts the rules read', () => {
    const templates = readable();
    const first = sdkBlock('a1', progress(1));
    templates.learn(first, progress(1));
    expect(templates.match(first, 0)).toBeUndefined();
    templates.learn(first, progress(1));
    const text = `xx${sdkBlock('a2', progress(2))}`;
    const block = templates.match(text, 2)!;
    expect(block.end).toBe(text.length);
    expect(block.id).toBe('a2');
    expect(text.slice(block.idStart, block.idStart + 2)).toBe('a2');
    expect(block.event).toBe('message');
    expect(payloadOf(text, block)).toBe(JSON.stringify(progress(2)));
    expect(block.plan(block.groups)).toEqual({ 'params.progressToken': 't', 'params.progress': '2', 'params._meta.app_seq': '2' });
    // Sticky: a block further on is not taken from here.
    expect(templates.match(text, 0)).toBeUndefined();
  });

  it('capture only the leaves the readers read', () => {
    const value = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'x', data: { stop_reason: 'end_turn', text: 'hi' } } };
    const block = taught(sdkBlock('1', value)).match(sdkBlock('2', value), 0)!;
    expect(block.plan(block.groups)).toEqual({ 'params.data.stop_reason': 'end_turn' });
  });

  it('never take a block the parser would read differently, or one that earns a warning', () => {
    const templates = taught(sdkBlock('1', progress(1)));
    const misses = [
      sdkBlock('1', progress(2)).replace(/\n/g, '\r\n'),
      sdkBlock('a\0b', progress(2)),
      sdkBlock('1', { ...progress(2), params: { ...progress(2).params, progressToken: 'bad \uFFFD' } }),
      sdkBlock('1', progress(2)).replace('data: ', 'data:  '),
      sdkBlock('1', progress(2)).replace('\n\n', '\n'),
      sdkBlock('1', progress(2)).replace('event: message', 'event: message '),
      `retry: 5\n${sdkBlock('1', progress(2))}`,
    ];
    for (const text of misses) expect(templates.match(text, 0), JSON.stringify(text)).toBeUndefined();
    expect(templates.match(sdkBlock('', progress(2)), 0)?.id).toBeUndefined();
  });

  it('refuse layouts they cannot read exactly', () => {
    const refused = [
      `event: message\ndata: ${JSON.stringify(progress(1), null, 1).replace(/\n/g, '')}\n\n`,
      `data: ${JSON.stringify(progress(1))}\nid: 1\n\n`,
      `event: endpoint\ndata: ${JSON.stringify(progress(1))}\n\n`,
      `: comment\n${sdkBlock('1', progress(1))}`,
    ];
    for (const raw of refused) expect(taught(raw).match(raw, 0), raw).toBeUndefined();
  });
});

// Payload families a stream repeats, with the fields the rules read in and out of place.
const text = fc.oneof(fc.constantFrom('t', 'end_turn', 'stop', '', 'é€😀', '\\"'), fc.string({ unit: 'grapheme', maxLength: 8 }));
const number = fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constantFrom(0.5, 1e21, 2 ** 53, -0));
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const meta = fc.record({ app_seq: scalar, resume_token: scalar, progressToken: scalar }, { requiredKeys: [] });
const families = [
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/progress'), params: fc.record({ progressToken: fc.oneof(text, number), progress: number, total: number, message: text, _meta: meta }, { requiredKeys: ['progressToken', 'progress'] }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/message'), params: fc.record({ level: text, data: fc.record({ stop_reason: text, stopReason: text, seq: number }, { requiredKeys: [] }) }) }),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.oneof(number, text), result: fc.record({ stopReason: text, protocolVersion: text, serverInfo: fc.record({ name: text }), _meta: meta }, { requiredKeys: [] }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(number, text, fc.constant(null)), error: fc.record({ code: number, message: text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, app_seq: scalar, resume_token: scalar }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(number, text, fc.constant(null), fc.boolean()), method: fc.constantFrom('tools/call', 'notifications/progress'), params: fc.record({ stopReason: text, progress: number, progressToken: scalar, _meta: meta }, { requiredKeys: [] }) }),
];
const block = fc.record({
  id: fc.oneof(fc.constantFrom('', '1', '1', 'x', undefined), fc.string({ maxLength: 6 }).filter((id) => !/[\r\n\0]/.test(id))),
  event: fc.constantFrom('message', 'message', 'other', undefined),
  value: fc.oneof(...families),
});

describe('block templates against the parser', () => {
  it('give the same events and report as the general reader', { timeout: 60_000 }, () => {
    let read = 0;
    fc.assert(
      fc.property(
        // A stream repeats a few blocks (the same shapes, so templates learn them) in any order.
        fc.array(block, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 80 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.subarray(['/params/data/seq', '/params/progress', '']),
        (pool, order, cuts, pointers) => {
          const blocks = order.map((i) => pool[i % pool.length]!);
          const body = blocks.map((b) => `${b.event ? `event: ${b.event}\n` : ''}${b.id === undefined ? '' : `id: ${b.id}\n`}data: ${JSON.stringify(b.value)}\n\n`).join('');
          const templated = analyseBody(body, cuts, { appSeqPointers: pointers });
          const general = analyseBody(body, cuts, { appSeqPointers: pointers, learnedReaders: false });
          expect(templated.events).toEqual(general.events);
          expect(JSON.stringify(templated.report)).toBe(JSON.stringify(general.report));
          expect(general.learned).toEqual({ blocks: 0, payloads: 0 });
          if (templated.learned.blocks > 0) read++;
        },
      ),
      { numRuns: 400 },
    );
    // The comparison means something only where templates did read blocks.
    expect(read).toBeGreaterThan(100);
  });
});
