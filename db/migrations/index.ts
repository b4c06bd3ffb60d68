import type { Migration } from 'kysely/migration';
import * as m001 from './001-content';
import * as m002 from './002-auth';
import * as m005 from './005-donations';
import * as m007 from './007-receipts';
import * as m008 from './008-donors';
import * as m009 from './009-campaigns';
import * as m010 from './010-editorial';
import * as m011 from './011-report-indexes';
import * as m012 from './012-autosave-draft';
import * as m013 from './013-payment-purpose';
import * as m014 from './014-membership';
import * as m015 from './015-letters';
import * as m016 from './016-membership-payments';
import * as m017 from './017-news-sources';
import * as m018 from './018-manual-dues';
import * as m019 from './019-news-departures';
import * as m020 from './020-dues-means';
import * as m021 from './021-offline-gifts';
import * as m022 from './022-payment-disputes';
import * as m023 from './023-payment-method';
import * as m024 from './024-gifts-in-kind';
import * as m025 from './025-transparency';
import * as m026 from './026-provider-fees';
import * as m027 from './027-receipt-regimes';
import * as m028 from './028-imports';
import * as m030 from './030-people';
import * as m031 from './031-segments';
import * as m032 from './032-import-records';

/**
 * Every migration, in order. Migrations live in code (not read from disk) so that the server
 * bundle carries them; add a new file and a line here, never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '001-content': m001,
  '002-auth': m002,
  '005-donations': m005,
  '007-receipts': m007,
  '008-donors': m008,
  '009-campaigns': m009,
  '010-editorial': m010,
  '011-report-indexes': m011,
  '012-autosave-draft': m012,
  '013-payment-purpose': m013,
  '014-membership': m014,
  '015-letters': m015,
  '016-membership-payments': m016,
  '017-news-sources': m017,
  '018-manual-dues': m018,
  '019-news-departures': m019,
  '020-dues-means': m020,
  '021-offline-gifts': m021,
  '022-payment-disputes': m022,
  '023-payment-method': m023,
  '024-gifts-in-kind': m024,
  '025-transparency': m025,
  '026-provider-fees': m026,
  '027-receipt-regimes': m027,
  '028-imports': m028,
  '030-people': m030,
  '031-segments': m031,
  '032-import-records': m032,
};
