export { CentralClient, type CentralClientOptions, SyncHttpError, SyncNetworkError } from './client';
export {
  backoffDelay,
  type ReplicaStore,
  Replicator,
  type ReplicatorOptions,
  type ReplicatorStatus,
} from './replicator';
export { type DeviceCredential, readCredential, writeCredential, credentialFile } from './credential';
export {
  type CentralBranch,
  type CentralSignIn,
  centralBranches,
  normaliseCentralUrl,
  RegisterError,
  type RegisterInput,
  registerWithCentral,
  signInToCentral,
} from './register';
export {
  actAtCentral,
  type CentralAnswer,
  changePasswordAtCentral,
  refreshAtCentral,
  signInAtCentral,
} from './central-account';
