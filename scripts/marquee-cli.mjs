#!/usr/bin/env node
// `npx marquee model pull|plan|apply`: a workspace's content model as a file a team keeps in git, and
// the change from the file to a workspace planned and applied through the API. `npx marquee graphql
// cost`: what a GraphQL query of the delivery API costs, as the server counts it, for a CI check.
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
  --base-version  apply only if the workspace's model is still at this version (409 otherwise)

  marquee graphql cost QUERY.graphql (--schema FILE | --url URL --key KEY --workspace WS [--stage STAGE])
                       [--variables JSON] [--operation NAME] [--max-cost N] [--max-depth N]

  --schema     the delivery API's schema as SDL (.graphql) or an introspection answer (.json)
  --key        a delivery API key, mq_… (MARQUEE_KEY): the schema is read from the stage's endpoint
  --stage      the stage whose endpoint answers (default live)
  --max-cost, --max-depth  the limits to hold the query to (default the server's defaults); over
               them the command exits 1`;

/** A mistake in how the command was called (exit code 2). */
class CliError extends Error {}

/** The command line's options. */
const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  workspace: { type: 'string' },
  file: { type: 'string' },
  'base-version': { type: 'string' },
  key: { type: 'string' },
  stage: { type: 'string' },
  schema: { type: 'string' },
  variables: { type: 'string' },
  operation: { type: 'string' },
  'max-cost': { type: 'string' },
  'max-depth': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** Options that take a value. */
const VALUED = new Set(Object.keys(OPTIONS).filter((name) => OPTIONS[name].type === 'string'));

/**
 * `--token -x…` as `--token=-x…`: a value may begin with a dash (a random token does one time in 64),
 * which parseArgs otherwise refuses as ambiguous.
 */
function withValuesJoined(args) {
  const joined = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].startsWith('--') ? args[i].slice(2) : undefined;
    if (name && VALUED.has(name) && i + 1 < args.length) joined.push(`${args[i]}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

function optionsOf(args, env) {
  const { values, positionals } = parseArgs({
    args: withValuesJoined(args),
    allowPositionals: true,
    options: OPTIONS,
  });
  const [topic, command] = positionals;
  if (!values.help && topic === 'graphql' && command === 'cost')
    return graphqlOptionsOf(values, positionals, env);
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

const wholeNumber = (text, name) => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--${name} must be a whole number`);
  return n;
};

function graphqlOptionsOf(values, positionals, env) {
  const file = positionals[2];
  if (!file) throw new CliError(`graphql cost needs the query's file\n\n${USAGE}`);
  const url = values.url ?? env.MARQUEE_URL;
  const key = values.key ?? env.MARQUEE_KEY;
  const workspace = values.workspace ?? env.MARQUEE_WORKSPACE;
  if (!values.schema && (!url || !key || !workspace))
    throw new CliError(`--schema, or --url, --key and --workspace, are needed\n\n${USAGE}`);
  let variables;
  try {
    variables = values.variables ? JSON.parse(values.variables) : undefined;
  } catch {
    throw new CliError('--variables must be JSON');
  }
  return {
    command: 'graphql-cost',
    file,
    schemaFile: values.schema,
    url: url?.replace(/\/+$/, ''),
    key,
    workspace,
    stage: values.stage ?? 'live',
    variables,
    operationName: values.operation,
    maxCost: wholeNumber(values['max-cost'], 'max-cost'),
    maxDepth: wholeNumber(values['max-depth'], 'max-depth'),
  };
}

/** The delivery API's GraphQL schema: from a file (SDL or introspection JSON), or the stage's endpoint. */
async function graphqlSchemaOf(graphql, options) {
  if (options.schemaFile) {
    let text;
    try {
      text = fs.readFileSync(options.schemaFile, 'utf8');
    } catch (err) {
      throw new CliError(`${options.schemaFile}: ${err.message}`);
    }
    if (!options.schemaFile.endsWith('.json')) return graphql.buildSchema(text);
    const parsed = JSON.parse(text);
    return graphql.buildClientSchema(parsed.data ?? parsed);
  }
  const endpoint = `${options.url}/delivery/v1/${encodeURIComponent(options.workspace)}/${encodeURIComponent(options.stage)}/graphql`;
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: graphql.getIntrospectionQuery() }),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok || !answer.data)
    throw new Error(`${endpoint}: ${res.status} ${answer.errors?.[0]?.message ?? ''}`);
  return graphql.buildClientSchema(answer.data);
}

/** `graphql cost`: prints the query's cost and depth as JSON; 1 when over the limits or not valid. */
async function graphqlCost(options, write, error) {
  const graphql = await import('graphql');
  const { costOf, DEFAULT_MAX_COST, DEFAULT_MAX_DEPTH } = await import('../src/shared/graphql/cost.ts');
  let query;
  try {
    query = fs.readFileSync(options.file, 'utf8');
  } catch (err) {
    throw new CliError(`${options.file}: ${err.message}`);
  }
  const schema = await graphqlSchemaOf(graphql, options);
  const document = graphql.parse(query);
  const errors = graphql.validate(schema, document);
  if (errors.length > 0) {
    error(errors.map((e) => `${options.file}: ${e.message}\n`).join(''));
    return 1;
  }
  const { requested, depth } = costOf(schema, document, {
    operationName: options.operationName,
    variables: options.variables,
  });
  const maxCost = options.maxCost ?? DEFAULT_MAX_COST;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  write(`${JSON.stringify({ requested, depth, maxCost, maxDepth })}\n`);
  if (requested <= maxCost && depth <= maxDepth) return 0;
  error(
    `${options.file}: over the limits (cost ${requested} of ${maxCost}, depth ${depth} of ${maxDepth})\n`,
  );
  return 1;
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
    if (options.command === 'graphql-cost') return await graphqlCost(options, write, error);
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
