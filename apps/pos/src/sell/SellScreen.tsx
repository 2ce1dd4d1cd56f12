import { useState } from 'react';
import { useWedgeScanner } from './useWedgeScanner';

/**
 * The selling screen's frame. The catalogue and sales APIs are not there yet; the scanner hook
 * already listens, so the cart can take scans as soon as barcode lookup exists.
 */
export function SellScreen() {
  const [lastScan, setLastScan] = useState<string | null>(null);
  useWedgeScanner(setLastScan);
  return (
    <section aria-labelledby="screen-title" className="sell">
      <h1 id="screen-title">Sell</h1>
      <p className="notice info">
        The medicine catalogue is coming. Selling, the cart and payment will appear here once the catalogue
        and sales services are available.
      </p>
      <div className="sell-layout">
        <section aria-label="Cart" className="card cart-placeholder">
          <h2>Cart</h2>
          <p>Scan a pack or search for a medicine to start a sale.</p>
        </section>
        <section aria-label="Scanner" className="card">
          <h2>Scanner</h2>
          <p role="status" aria-live="polite">
            {lastScan ? `Last scan: ${lastScan}` : 'Waiting for a scan.'}
          </p>
        </section>
      </div>
    </section>
  );
}
