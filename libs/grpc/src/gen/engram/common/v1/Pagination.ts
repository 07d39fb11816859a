// Original file: protos/engram/common/v1/common.proto


export interface Pagination {
  'currentPage'?: (number);
  'limit'?: (number);
  'totalItems'?: (number);
  'totalPages'?: (number);
}

export interface Pagination__Output {
  'currentPage': (number);
  'limit': (number);
  'totalItems': (number);
  'totalPages': (number);
}
