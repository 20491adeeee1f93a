import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { errorReply, guardClient, RESUMPTION_BOUNDARY_CODE, ResumptionBoundaryError, type ResumptionBoundary } from './errors';

const boundary: ResumptionBoundary = {
  finding: { code: 'resume-seq-gap', severity: 'error', stream: 4, event: 0, message: 'app_seq jumped from 5 to 11 across the resume.', evidence: { expected: 6, got: 11, lastSeen: 5 } },
  verdict: 'gap',
  resume: { stream: 4, of: 3, lastEventId: 'abc_1_x', verdict: 'gap' },
  stream: { index: 4, method: 'GET', url: 'http://127.0.0.1/mcp', status: 200, lastEventId: 'abc_1_x', resumes: 3, events: 2, end: 'complete' },
  requestId: 1,
  reissues: 0,
  reason: 'policy',
};

describe('ResumptionBoundaryError', () => {
  it('survives the SDK turning the guard\'s reply into an McpError (McpError.fromError, as Protocol does)', () => {
    const reply = errorReply(boundary) as { error: { code: number; message: string; data: unknown } };
    const sdkError = McpError.fromError(reply.error.code, reply.error.message, reply.error.data);
    expect(sdkError).not.toBeInstanceOf(ResumptionBoundaryError);
    const error = ResumptionBoundaryError.from(sdkError)!;
    expect(error).toBeInstanceOf(ResumptionBoundaryError);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(RESUMPTION_BOUNDARY_CODE);
    expect(error.message).toBe(sdkError.message);
    expect([error.finding.code, error.expected, error.got, error.lastSeen, error.stream.url, error.requestId]).toEqual(['resume-seq-gap', 6, 11, 5, 'http://127.0.0.1/mcp', 1]);
    // The data is plain JSON, as a reply's must be.
    expect(JSON.parse(JSON.stringify(reply.error.data))).toEqual(reply.error.data);
  });

  it('from() leaves every other error alone', () => {
    expect(ResumptionBoundaryError.from(new McpError(-32001, 'Request timed out'))).toBeUndefined();
    expect(ResumptionBoundaryError.from(new McpError(RESUMPTION_BOUNDARY_CODE, 'not ours', { other: 1 }))).toBeUndefined();
    expect(ResumptionBoundaryError.from(new Error('x'))).toBeUndefined();
  });

  it('guardClient rethrows the guard\'s refusals typed, and other errors as they were', async () => {
    const reply = errorReply(boundary) as { error: { code: number; message: string; data: unknown } };
    const other = new McpError(-32001, 'Request timed out');
    const client = guardClient({ request: (fail: unknown) => Promise.reject(fail) });
    await expect(client.request(McpError.fromError(reply.error.code, reply.error.message, reply.error.data) as never)).rejects.toBeInstanceOf(ResumptionBoundaryError);
    await expect(client.request(other as never)).rejects.toBe(other);
  });
});
