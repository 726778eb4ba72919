/**
 * An interface view that could not be computed, as Canton reports one in `interfaceViews[]`: the
 * view's status is the error's gRPC status (LfValueTranslation: the Daml error as a command
 * execution error, `asGrpcStatus`), and there is no view value. The read goes on.
 */
export class ViewFailed extends Error {
  override readonly name = 'ViewFailed';
  constructor(
    /** The gRPC status code (FAILED_PRECONDITION for a failed view, ABORTED for one past its budget). */
    readonly grpcCode: number,
    message: string,
  ) {
    super(message);
  }
}
