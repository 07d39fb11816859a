// Original file: protos/engram/connections/v1/connections_service.proto

/**
 * Connector identifiers; REST spelling in brackets.
 */
export const Provider = {
  PROVIDER_UNSPECIFIED: 'PROVIDER_UNSPECIFIED',
  /**
   * [notion] workspace notes.
   */
  PROVIDER_NOTION: 'PROVIDER_NOTION',
  /**
   * [google-drive] cloud document drive.
   */
  PROVIDER_GOOGLE_DRIVE: 'PROVIDER_GOOGLE_DRIVE',
  /**
   * [onedrive] business file storage.
   */
  PROVIDER_ONEDRIVE: 'PROVIDER_ONEDRIVE',
  /**
   * [gmail] email threads.
   */
  PROVIDER_GMAIL: 'PROVIDER_GMAIL',
  /**
   * [github] code repositories.
   */
  PROVIDER_GITHUB: 'PROVIDER_GITHUB',
  /**
   * [web-crawler] web pages; credential-free direct connection.
   */
  PROVIDER_WEB_CRAWLER: 'PROVIDER_WEB_CRAWLER',
  /**
   * [s3] object storage bucket; direct connection with access keys.
   */
  PROVIDER_S3: 'PROVIDER_S3',
  /**
   * [granola] meeting notes; direct connection with an API key.
   */
  PROVIDER_GRANOLA: 'PROVIDER_GRANOLA',
} as const;

/**
 * Connector identifiers; REST spelling in brackets.
 */
export type Provider =
  | 'PROVIDER_UNSPECIFIED'
  | 0
  /**
   * [notion] workspace notes.
   */
  | 'PROVIDER_NOTION'
  | 1
  /**
   * [google-drive] cloud document drive.
   */
  | 'PROVIDER_GOOGLE_DRIVE'
  | 2
  /**
   * [onedrive] business file storage.
   */
  | 'PROVIDER_ONEDRIVE'
  | 3
  /**
   * [gmail] email threads.
   */
  | 'PROVIDER_GMAIL'
  | 4
  /**
   * [github] code repositories.
   */
  | 'PROVIDER_GITHUB'
  | 5
  /**
   * [web-crawler] web pages; credential-free direct connection.
   */
  | 'PROVIDER_WEB_CRAWLER'
  | 6
  /**
   * [s3] object storage bucket; direct connection with access keys.
   */
  | 'PROVIDER_S3'
  | 7
  /**
   * [granola] meeting notes; direct connection with an API key.
   */
  | 'PROVIDER_GRANOLA'
  | 8

/**
 * Connector identifiers; REST spelling in brackets.
 */
export type Provider__Output = typeof Provider[keyof typeof Provider]
