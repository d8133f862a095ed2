export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'duplicate'
  | 'body_not_raw'
  /** The signed body is not a JSON object with a string `event`. */
  | 'malformed_body'
  /** `X-Service-Event` names another kind than the signed body's `event`. */
  | 'event_mismatch';

/** Why a delivery was refused. Answer 400 for every code except `duplicate`, where 200 stops our retries. */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
  }
}
