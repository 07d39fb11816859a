/** Input that can never be processed (unsupported or corrupt): the document fails, no retry. */
export class UnprocessableDocumentError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "UnprocessableDocumentError";
  }
}
