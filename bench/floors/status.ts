/**
 * The least a `simjob status <id> --json` can do on simjob's stack: commander parses one command, node:http makes
 * the request, the zod/mini schema of schemas.ts checks the answer, and it is printed. No config, no errors, no
 * retries. bench/startup.ts bundles it as the CLI is bundled and times it beside simjob: the gap between the two is
 * what simjob's own code costs, and the floor itself what the stack costs.
 */
import { Command } from 'commander';
import { request, Agent } from 'node:http';
import { StatusRecord } from '../../src/core/resources/schemas.js';

const program = new Command('floor');
program
  .command('status')
  .argument('<id>')
  .option('--json')
  .action(async (id: string) => {
    const agent = new Agent({ keepAlive: true });
    const url = `${process.env.SIMJOB_BASE_URL}/v1/sim/jobs/${encodeURIComponent(id)}/status`;
    const headers = { authorization: `Bearer ${process.env.SIMJOB_API_KEY}` };
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject).end();
    });
    agent.destroy();
    process.stdout.write(`${JSON.stringify(StatusRecord.parse(JSON.parse(text)))}\n`);
  });
void program.parseAsync();
