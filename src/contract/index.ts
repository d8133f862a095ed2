export { OPERATIONS, OPERATION_IDS, fillPath, pathParams, writes, type Method, type Operation, type OperationDefinition, type OperationId } from './operations.js';
export {
  OPERATION_SCHEMAS,
  answersPage,
  inputSchema,
  successSchema,
  takesBody,
  type BodyOf,
  type DataOf,
  type ItemOf,
  type OperationSchemas,
  type QueryOf,
  type ResponseOf,
} from './schemas.js';
export { PACKAGE_HOMEPAGE, PACKAGE_VERSION } from './version.js';
