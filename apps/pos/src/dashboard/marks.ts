/** Set when the dashboard's revenue chart is first drawn: the e2e perf spec measures navigation → this mark. */
export const DASHBOARD_CHART_MARK = 'dashboard:revenue-chart-drawn';
