import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@pharmacy/contracts/client';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { ChangePasswordScreen } from './auth/ChangePasswordScreen';
import { LoginScreen } from './auth/LoginScreen';
import { BackOffice } from './backoffice/BackOffice';
import { CashSessionScreen } from './cash/CashSessionScreen';
import { CustomersScreen } from './customers/CustomersScreen';
import { PrescriptionsScreen } from './prescriptions/PrescriptionsScreen';
import { ReturnsScreen } from './returns/ReturnsScreen';
import { NotFound } from './shell/NotFound';
import { SellScreen } from './sell/SellScreen';
import { safeNext } from './shell/next-path';
import { SessionProvider, useSession } from './session/SessionProvider';
import { AppShell } from './shell/AppShell';
import { homePath, mayOpen } from './shell/nav';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refused request will be refused again; only network trouble is worth a retry.
      retry: (count, error) => count < 2 && error instanceof ApiError && error.isNetworkError,
      refetchOnWindowFocus: false,
    },
  },
});

function TillRoutes() {
  const { state } = useSession();
  const [location] = useLocation();
  const search = useSearch();

  if (state.status === 'restoring') {
    return (
      <p role="status" className="splash">
        Opening the till…
      </p>
    );
  }
  if (state.status === 'signed-out') {
    if (location !== '/login') {
      const place = `${location}${search ? `?${search}` : ''}`;
      const keep = state.reason !== 'signed-out' && location !== '/';
      return <Redirect to={keep ? `/login?next=${encodeURIComponent(place)}` : '/login'} replace />;
    }
    return <LoginScreen expired={state.reason === 'expired'} />;
  }
  if (state.user.must_change_password) return <ChangePasswordScreen />;
  const role = state.user.role;
  if (location === '/login' || location === '/') {
    return <Redirect to={safeNext(new URLSearchParams(search).get('next'), role)} replace />;
  }
  // A till screen this role may not use (an inventory manager on Sell): its home instead.
  if (!mayOpen(role, location)) return <Redirect to={homePath(role)} replace />;
  return (
    <AppShell>
      <Switch>
        <Route path="/sell" component={SellScreen} />
        <Route path="/returns" component={ReturnsScreen} />
        <Route path="/customers" component={CustomersScreen} />
        <Route path="/cash" component={CashSessionScreen} />
        <Route path="/prescriptions" nest>
          <PrescriptionsScreen />
        </Route>
        <Route path="/back-office" nest>
          <BackOffice />
        </Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </AppShell>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <TillRoutes />
      </SessionProvider>
    </QueryClientProvider>
  );
}
