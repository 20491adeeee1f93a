// The command `record` runs in its tests: the demo's real SDK client, pointed at MCP_PROXY_URL
// as an agent would be. Exits with RECORD_CLIENT_EXIT (default 0) once its call is done.
import { runLongTask } from '../../../demo/client/long-task-client.js';
import { DEMO_TASK } from '../../../demo/scenario-catalog.js';

const url = process.env.MCP_PROXY_URL;
if (!url) throw new Error('MCP_PROXY_URL is not set');
const run = await runLongTask(url, { ...DEMO_TASK, idempotencyKey: 'record-client' });
const seq = 'result' in run.belief ? (run.belief.result._meta as { app_seq?: number } | undefined)?.app_seq : run.belief.error;
process.stdout.write(`client got app_seq ${seq} through ${url}\n`);
process.exitCode = Number(process.env.RECORD_CLIENT_EXIT ?? 0);
