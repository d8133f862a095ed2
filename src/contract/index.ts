export { OPERATION_DOCS } from './docs.js';
export {
  type Answers,
  fillPath,
  type Method,
  type ObjectSchemaName,
  OPERATION_IDS,
  OPERATIONS,
  type Operation,
  type OperationDefinition,
  type OperationDoc,
  type OperationDocs,
  type OperationId,
  pathParams,
  RESOURCES,
  type SchemaName,
  writes,
} from './operations.js';
export {
  answersPage,
  type BodyOf,
  type DataOf,
  type ItemOf,
  inputSchema,
  OPERATION_SCHEMAS,
  type OperationSchemas,
  type QueryOf,
  type ResponseOf,
  successSchema,
  takesBody,
} from './schemas.js';
export { PACKAGE_HOMEPAGE, PACKAGE_VERSION } from './version.js';
