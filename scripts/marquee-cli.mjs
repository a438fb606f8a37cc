#!/usr/bin/env node
// `npx marquee model pull|plan|apply`: a workspace's content model as a file a team keeps in git, and
// the change from the file to a workspace planned and applied through the API.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = `Usage:
  marquee model pull  --url URL --token TOKEN --workspace WS [--file model.json]
  marquee model plan  --url URL --token TOKEN --workspace WS --file model.json
  marquee model apply --url URL --token TOKEN --workspace WS --file model.json [--base-version N]

  --url        where Marquee answers (MARQUEE_URL), e.g. http://localhost:8080
  --token      a bearer token of a workspace manager (MARQUEE_TOKEN)
  --workspace  the workspace id (MARQUEE_WORKSPACE)
  --file       the model document; pull writes it (default: standard output), plan and apply read it
  --base-version  apply only if the workspace's model is still at this version (409 otherwise)`;

/** A mistake in how the command was called (exit code 2). */
class CliError extends Error {}

function optionsOf(args, env) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      workspace: { type: 'string' },
      file: { type: 'string' },
      'base-version': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [topic, command] = positionals;
  if (values.help || topic !== 'model' || !['pull', 'plan', 'apply'].includes(command))
    throw new CliError(USAGE);
  const url = values.url ?? env.MARQUEE_URL;
  const token = values.token ?? env.MARQUEE_TOKEN;
  const workspace = values.workspace ?? env.MARQUEE_WORKSPACE;
  if (!url || !token || !workspace)
    throw new CliError(`--url, --token and --workspace are needed\n\n${USAGE}`);
  if (command !== 'pull' && !values.file) throw new CliError(`${command} needs --file\n\n${USAGE}`);
  const baseVersion = values['base-version'] === undefined ? undefined : Number(values['base-version']);
  if (baseVersion !== undefined && !Number.isInteger(baseVersion))
    throw new CliError('--base-version must be a whole number');
  return { command, url: url.replace(/\/+$/, ''), token, workspace, file: values.file, baseVersion };
}

async function request(options, method, path, body) {
  const res = await fetch(
    `${options.url}/api/v1/workspaces/${encodeURIComponent(options.workspace)}/content-model${path}`,
    {
      method,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    },
  );
  const text = await res.text();
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = { message: text };
  }
  if (!res.ok) throw new Error(`${method} ${path || '/'}: ${res.status} ${answer.error?.message ?? text}`);
  return answer;
}

function readDocument(file) {
  let parsed;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`${file}: ${err.message}`);
  }
  // A pulled file holds { version, model }; a hand-written one may be the model itself.
  return parsed && typeof parsed === 'object' && 'model' in parsed ? parsed.model : parsed;
}

function printPlan(plan, write) {
  if (plan.ops.length === 0) {
    write('No changes: the workspace already has this model.\n');
    return;
  }
  write(`${plan.ops.length} operation(s) on model version ${plan.baseVersion}:\n`);
  for (const impact of plan.impacts) {
    const effects = [`${impact.touched} item(s) touched`];
    if (impact.failing.count > 0) effects.push(`${impact.failing.count} would be incomplete`);
    write(`  - ${impact.summary} (${effects.join(', ')})\n`);
    if (impact.warning) write(`    ${impact.warning}\n`);
  }
}

/** Runs the CLI; answers its exit code. */
export async function run(
  args,
  { env = process.env, write = (t) => process.stdout.write(t), error = (t) => process.stderr.write(t) } = {},
) {
  try {
    const options = optionsOf(args, env);
    if (options.command === 'pull') {
      const exported = await request(options, 'GET', '/export');
      const text = `${JSON.stringify(exported, null, 2)}\n`;
      if (options.file) {
        fs.writeFileSync(options.file, text);
        write(`Wrote model version ${exported.version} to ${options.file}\n`);
      } else write(text);
      return 0;
    }
    const document = readDocument(options.file);
    const body = {
      document,
      ...(options.baseVersion !== undefined ? { baseVersion: options.baseVersion } : {}),
    };
    if (options.command === 'plan') {
      printPlan(await request(options, 'POST', '/plan', body), write);
      return 0;
    }
    const applied = await request(options, 'POST', '/apply', body);
    write(
      applied.change
        ? `Applied: model version ${applied.version} (change ${applied.change.id}, ${applied.change.ops.length} operation(s))\n`
        : `No changes: the workspace already has this model (version ${applied.version}).\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof CliError || err?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      error(`${err.message}\n`);
      return 2;
    }
    error(`${err?.message ?? err}\n`);
    return 1;
  }
}

const invoked = process.argv[1] && fs.realpathSync(process.argv[1]);
if (invoked === fileURLToPath(import.meta.url)) {
  process.exitCode = await run(process.argv.slice(2));
}
