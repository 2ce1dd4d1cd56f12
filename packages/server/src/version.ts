/** The product version; the API contract version is the path prefix /api/v1. */
export const VERSION = '0.1.0';
