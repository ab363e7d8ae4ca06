/** The contract could not be loaded or used: a broken spec or limits file. The CLI exits 2. */
export class ContractError extends Error {
  override name = 'ContractError';
}
