import type { Migration } from 'kysely';
import { foundation } from './0001_foundation';
import { catalogue } from './0002_catalogue';
import { selling } from './0003_selling';
import { backoffice } from './0004_backoffice';
import { sync } from './0005_sync';
import { printing } from './0006_printing';
import { prescriptions } from './0007_prescriptions';
import { zPerDevice } from './0008_z_per_device';
import { dropPrefixIndexes } from './0009_drop_prefix_indexes';
import { refundTenderApprovals } from './0011_refund_tender_approvals';
import { authSessions } from './0012_auth_sessions';
import { customerCreditTerms } from './0013_customer_credit_terms';
import { medicinesList } from './0014_medicines_list';
import { tillSettings } from './0015_till_settings';
import { templatePaperWidth } from './0016_template_paper_width';
import { transfersInTransit } from './0017_transfers_in_transit';
import { medicinesListCovering } from './0018_medicines_list_covering';
import { reportSummaries } from './0019_report_summaries';
import { reportSummaryDeltas } from './0020_report_summary_deltas';
import { centralChangeLog } from './0021_central_change_log';
import { accountPaymentsInSessions } from './0022_account_payments_in_sessions';
import { returnsByRefundDate } from './0023_returns_by_refund_date';
import { searchCollation } from './0024_search_collation';
import { booksReview } from './0025_books_review';
import { deviceSignIns } from './0026_device_sign_ins';
import { willCallReservations } from './0027_will_call_reservations';
import { stockOnHandPerMedicine } from './0028_stock_on_hand_per_medicine';
import { medicineStockUnitsKeptOncePerWrite } from './0029_medicine_stock_units_kept_once_per_write';
import { medicineStockLowStockThreshold } from './0030_medicine_stock_low_stock_threshold';
import { medicineStockCountsKept } from './0031_medicine_stock_counts_kept';
import { medicineStockVacuumedOften } from './0032_medicine_stock_vacuumed_often';

/**
 * Forward-only, numbered, imported statically: a packaged app cannot read a migrations folder at run time.
 * Append new migrations at the end; never edit or reorder one that has shipped.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_catalogue': catalogue,
  '0003_selling': selling,
  '0004_backoffice': backoffice,
  '0005_sync': sync,
  '0006_printing': printing,
  '0007_prescriptions': prescriptions,
  '0008_z_per_device': zPerDevice,
  '0009_drop_prefix_indexes': dropPrefixIndexes,
  '0011_refund_tender_approvals': refundTenderApprovals,
  '0012_auth_sessions': authSessions,
  '0013_customer_credit_terms': customerCreditTerms,
  '0014_medicines_list': medicinesList,
  '0015_till_settings': tillSettings,
  '0016_template_paper_width': templatePaperWidth,
  '0017_transfers_in_transit': transfersInTransit,
  '0018_medicines_list_covering': medicinesListCovering,
  '0019_report_summaries': reportSummaries,
  '0020_report_summary_deltas': reportSummaryDeltas,
  '0021_central_change_log': centralChangeLog,
  '0022_account_payments_in_sessions': accountPaymentsInSessions,
  '0023_returns_by_refund_date': returnsByRefundDate,
  '0024_search_collation': searchCollation,
  '0025_books_review': booksReview,
  '0026_device_sign_ins': deviceSignIns,
  '0027_will_call_reservations': willCallReservations,
  '0028_stock_on_hand_per_medicine': stockOnHandPerMedicine,
  '0029_medicine_stock_units_kept_once_per_write': medicineStockUnitsKeptOncePerWrite,
  '0030_medicine_stock_low_stock_threshold': medicineStockLowStockThreshold,
  '0031_medicine_stock_counts_kept': medicineStockCountsKept,
  '0032_medicine_stock_vacuumed_often': medicineStockVacuumedOften,
};
