// @ts-check
// The errors of the solver's client (pool.js, pool-sweep.js): the contract's
// {code, field, message} (docs/API.md) on an Error.

export class SolverError extends Error {
  constructor(error) {
    super(error.message);
    this.name = 'SolverError';
    this.error = { code: error.code ?? 'internal', field: error.field ?? '', message: error.message ?? String(error) };
  }
  get code() { return this.error.code; }
  get field() { return this.error.field; }
}

export const cancelledError = (message = 'cancelled') => new SolverError({ code: 'cancelled', field: '', message });

/** The contract's error object of whatever a task was rejected with. */
export const errorOf = (e) => (e instanceof SolverError ? e.error : { code: 'internal', field: '', message: String(e?.message ?? e) });
