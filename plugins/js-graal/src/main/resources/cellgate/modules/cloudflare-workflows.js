// The "cloudflare:workflows" module: a step that throws NonRetryableError is not retried, and an
// instance whose run() lets it escape fails at once (bindings/workflow.js tells it apart by name).
export class NonRetryableError extends Error {
  constructor(message, name = 'NonRetryableError') {
    super(message);
    this.name = name;
  }
}
