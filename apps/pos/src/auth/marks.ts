/** Performance marks the till sets; e2e reads them to report how fast screens are ready. */
export const LOGIN_INTERACTIVE_MARK = 'till:login-interactive';
