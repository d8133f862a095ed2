/**
 * The snake_case surface of the agent tools, derived from the REST schemas by one generic set of functions:
 * JSON Schema property names are renamed, and values are converted guided by the schema, so free-form maps
 * (`metadata`) keep their keys and every bound of the REST schema carries over.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
};

export const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const toCamel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The schema with every property name (and `required` entry) in snake_case. */
export function snakeSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [toSnake(k), snakeSchema(v)]),
    );
    if (schema.required) out.required = schema.required.map(toSnake);
  }
  if (schema.items) out.items = snakeSchema(schema.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (schema[key]) out[key] = schema[key]!.map(snakeSchema);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = snakeSchema(schema.additionalProperties);
  return out;
}

/** The named properties a value of this schema may have, across union branches. */
function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> | undefined {
  if (!schema) return undefined;
  if (schema.properties) return schema.properties;
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const merged = Object.assign({}, ...branches.map((b) => propertiesOf(b) ?? {})) as Record<string, JsonSchema>;
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * The branch of a union a value is: the one whose constants (a discriminator such as an event's `event`) the value
 * carries, under either name. A value of a discriminated union is converted by its own branch, never by the
 * properties of the others (a `contact.created` payload's `contact` is not `contact.deleted`'s).
 */
function branchOf(schema: JsonSchema, value: object): JsonSchema | undefined {
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return branches.find((branch) => {
    const constants = Object.entries(branch.properties ?? {}).filter(([, p]) => p.const !== undefined);
    const fields = value as Record<string, unknown>;
    return constants.length > 0 && constants.every(([k, p]) => (fields[k] ?? fields[toSnake(k)]) === p.const);
  });
}

function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  return schema.items ?? [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((b) => b.items)?.items;
}

function recordValuesOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(recordValuesOf).find(Boolean);
}

/**
 * Convert a value's property names guided by a camelCase schema: `toCamel` on the way in (tool input to REST
 * input), `toSnake` on the way out. Names the schema does not know are kept as they are (so a typo still fails
 * the strict REST validation, under its own name), and the keys of free-form maps are never touched. On the way in,
 * a name that is not the snake_case one of its property (`externalUserId` for `external_user_id`) is noted in
 * `misnamed` (by its path): the tools take snake_case names only, as their schemas say.
 */
export function convertKeys(
  value: unknown,
  schema: JsonSchema | undefined,
  direction: 'in' | 'out',
  misnamed?: string[],
  path = '',
): unknown {
  // Free-form values (inside `metadata`, `body.json`) are left as they are: no names to convert, and no walk into
  // whatever depth they have before validation refuses it.
  if (schema === undefined) return value;
  if (Array.isArray(value))
    return value.map((v, i) => convertKeys(v, itemsOf(schema), direction, misnamed, `${path}${path ? '.' : ''}${i}`));
  if (value === null || typeof value !== 'object') return value;
  const at = (k: string) => (path ? `${path}.${k}` : k);
  const properties = propertiesOf(branchOf(schema, value) ?? schema);
  if (!properties) {
    const values = recordValuesOf(schema);
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, convertKeys(v, values, direction, misnamed, at(k))]),
    );
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const camel = direction === 'in' ? toCamel(k) : k;
      const property = properties[camel];
      if (!property) return [k, v];
      if (direction === 'in' && toSnake(camel) !== k) misnamed?.push(at(k));
      return [direction === 'in' ? camel : toSnake(k), convertKeys(v, property, direction, misnamed, at(k))];
    }),
  );
}

/** camelCase field names in an error message or path, in snake_case. */
export function snakeText(text: string): string {
  return text.replace(/\b([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)\b/g, (word) => toSnake(word));
}
