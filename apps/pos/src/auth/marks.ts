/** Performance marks the till sets; e2e reads them to report how fast screens are ready. */
export const LOGIN_INTERACTIVE_MARK = 'till:login-interactive';
/** Set at the first key of a wedge scanner burst (its startTime is that key's time). */
export const SCAN_START_MARK = 'till:scan-start';
/** A measure from SCAN_START_MARK to the commit that shows the scanned medicine's cart line. */
export const SCAN_TO_LINE_MEASURE = 'till:scan-to-line';
/** Set when the scan's Enter is recognised (the burst is complete); its detail is the code. */
export const SCAN_DETECTED_MARK = 'till:scan-detected';
/** From SCAN_DETECTED_MARK to the line on screen: the till's own share, without the burst's typing time. */
export const SCAN_DETECTED_TO_LINE_MEASURE = 'till:scan-detected-to-line';
