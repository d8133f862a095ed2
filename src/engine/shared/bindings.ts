import type { OperationId } from '../../contract/index.js';
import type { Whoami } from '../../schemas/whoami.js';

/** What an operation's binding gets: the path ids by name, and its body (if it takes one) or its query. */
export interface BoundRequest {
  params: Record<string, string>;
  input: Record<string, unknown>;
  /**
   * Resolves once the request's rate-limit count allows it to write, else rejects with the 429: given where the
   * contract marks the operation `readsWhileCounting` and the count is still on its way.
   */
  mayWrite?: () => Promise<void>;
  /** Who runs it: what `whoami` answers them. */
  caller: { whoami(): Whoami | Promise<Whoami> };
}

/** What an operation answers: the page of a list, or the `data` of anything else; `created` tells 201 from 200. */
export interface OperationResult {
  value: unknown;
  created?: boolean;
}

/** How a concept does one operation of the contract, with its workspace service. */
export type Binding<Service> = (service: Service, request: BoundRequest) => Promise<OperationResult>;

/** The operations a concept does, by operation id: what it brings to the contract beside its service. */
export type Bindings<Service> = { [K in OperationId]?: Binding<Service> };

/** The answer of a binding whose service gives the value itself. */
export const answer = async (pending: unknown): Promise<OperationResult> => ({ value: await pending });
