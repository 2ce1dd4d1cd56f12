import { Link, Route, Switch, useLocation } from 'wouter';
import { PrinterList } from './PrinterList';
import { PrintQueue } from './PrintQueue';
import { ShelfLabels } from './ShelfLabels';
import { TemplatesPanel } from './TemplatesPanel';

const TABS = [
  { path: '/', label: 'Printers' },
  { path: '/templates', label: 'Receipt templates' },
  { path: '/queue', label: 'Print queue' },
  { path: '/labels', label: 'Shelf labels' },
];

/** Back office → Printers: the branch's printers, receipt templates, print queue and shelf labels. */
export function PrintersScreen() {
  const [location] = useLocation();
  return (
    <section aria-labelledby="printers-title">
      <div className="screen-header">
        <h1 id="printers-title">Printers</h1>
      </div>
      <nav aria-label="Printing" className="tabs">
        {TABS.map((t) => (
          <Link key={t.path} href={t.path} aria-current={location === t.path ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      <Switch>
        <Route path="/templates" component={TemplatesPanel} />
        <Route path="/queue" component={PrintQueue} />
        <Route path="/labels" component={ShelfLabels} />
        <Route component={PrinterList} />
      </Switch>
    </section>
  );
}
