import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createOpenApiDocument } from './src/h3/openapi.ts';
import { mcpEndpoint } from './src/mcp/http.ts';
const config = await createConfig({ extends: ['recommended-strict'] });
const e = mcpEndpoint({} as never);
const problems = await lintFromString({ source: JSON.stringify(createOpenApiDocument({ version: '0.2.0' }, [{ method: e.method, path: e.path, openapi: e.openapi! }])), absoluteRef: 'openapi.json', config });
for (const p of problems) console.log(p.severity, p.ruleId, p.message, JSON.stringify(p.location?.[0]?.pointer));
console.log(problems.length, 'problems');
