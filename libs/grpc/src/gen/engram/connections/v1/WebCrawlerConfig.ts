// Original file: protos/engram/connections/v1/connections_service.proto


export interface WebCrawlerConfig {
  /**
   * Where crawling starts; only pages under this origin are followed.
   */
  'startUrl'?: (string);
  /**
   * Crawl limit; 0 = the connection's document_limit.
   */
  'maxPages'?: (number);
  /**
   * Days between recrawls; 0 = 7 (at least 7).
   */
  'recrawlIntervalDays'?: (number);
}

export interface WebCrawlerConfig__Output {
  /**
   * Where crawling starts; only pages under this origin are followed.
   */
  'startUrl': (string);
  /**
   * Crawl limit; 0 = the connection's document_limit.
   */
  'maxPages': (number);
  /**
   * Days between recrawls; 0 = 7 (at least 7).
   */
  'recrawlIntervalDays': (number);
}
