/** Online backup and restore of the all-in-one data directory (operator tools: `engram backup`, `engram restore`). */
export { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BackupRefusedError, type BackupManifest, MANIFEST_FILE, parseManifest, verifyAgainstManifest } from "./manifest";
export { type BackupOptions, type BackupResult, PIN_ORDER, SECRET_FILES, takeBackup } from "./snapshot";
export { type RestoreOptions, type RestoreResult, restoreBackup, verifyBackup } from "./restore";
