import type { Medicine, PrescriptionStatus } from '@pharmacy/contracts';
import { allows, BOOK_READERS, DISPENSERS } from '@pharmacy/contracts/roles';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { api } from '../api';
import { CustomerPicker } from '../customers/CustomerPicker';
import { MedicineSearch } from '../sell/MedicineSearch';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextField } from '../ui/fields';
import { useForm } from '../ui/useForm';
import { formatDateTime } from '../ui/format';
import { ControlledBook } from './ControlledBook';
import { WillCallQueue } from './WillCallQueue';

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  partially_dispensed: 'Partly dispensed',
  ready: 'Ready for pickup',
  dispensed: 'Dispensed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Rendered under a nested route: paths are relative to /prescriptions. */
export function PrescriptionsScreen() {
  const user = useUser();
  const [location] = useLocation();
  const sections = [
    { path: '/list', label: 'Prescriptions' },
    { path: '/will-call', label: 'Will-call' },
    ...(allows(BOOK_READERS, user.role)
      ? [{ path: '/controlled-book', label: 'Controlled drugs book' }]
      : []),
  ];
  return (
    <div className="back-office">
      <nav aria-label="Prescriptions" className="sub-nav">
        <ul>
          {sections.map((s) => (
            <li key={s.path}>
              <Link href={s.path} aria-current={location === s.path ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        <Switch>
          <Route path="/list" component={PrescriptionList} />
          <Route path="/will-call" component={WillCallQueue} />
          <Route path="/controlled-book">
            {allows(BOOK_READERS, user.role) ? (
              <ControlledBook />
            ) : (
              <p>The controlled drugs book is for pharmacists.</p>
            )}
          </Route>
          <Route>
            <Redirect to="/list" replace />
          </Route>
        </Switch>
      </div>
    </div>
  );
}

function PrescriptionList() {
  const user = useUser();
  const [patient, setPatient] = useState('');
  const [status, setStatus] = useState('');
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['prescriptions', 'list', patient.trim(), status],
    queryFn: () =>
      api.prescriptions.list({
        patient: patient.trim() || undefined,
        status: (status || undefined) as PrescriptionStatus | undefined,
        page_size: 50,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title">Prescriptions</h1>
        {allows(DISPENSERS, user.role) && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New prescription
          </button>
        )}
      </div>
      <search className="filters">
        <TextField
          label="Patient"
          type="search"
          value={patient}
          onChange={setPatient}
          placeholder="Name, ID number or phone"
        />
        <SelectField
          label="Status"
          value={status}
          onChange={setStatus}
          options={[
            { value: '', label: 'All' },
            ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
      </search>
      <ErrorNotice error={list.error} />
      <table aria-label="Prescriptions">
        <thead>
          <tr>
            <th scope="col">Patient</th>
            <th scope="col">Prescriber</th>
            <th scope="col">Issued</th>
            <th scope="col">Valid until</th>
            <th scope="col">Items</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((p) => (
            <tr key={p.id}>
              <td>
                <button type="button" className="link-button" onClick={() => setSelected(p.id)}>
                  {p.patient_name}
                </button>
              </td>
              <td>{p.prescriber_name}</td>
              <td>{p.issue_date}</td>
              <td>{p.valid_until}</td>
              <td>{p.item_count}</td>
              <td>{STATUS_LABELS[p.status] ?? p.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.items.length === 0 && <p>No prescriptions match.</p>}
      {creating && (
        <NewPrescriptionDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            setSelected(id);
          }}
        />
      )}
      {selected && <PrescriptionDialog id={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}

interface DraftItem {
  medicine: Medicine;
  quantity: number;
  dosage: string;
  refills: number;
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function NewPrescriptionDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const [patient, setPatient] = useState<{
    id: string;
    name: string;
    phone: string;
    national_id: string;
  } | null>(null);
  const { form, fieldsFor } = useForm({
    patient_id_number: '',
    prescriber_name: '',
    prescriber_licence_no: '',
    prescriber_facility: '',
    issue_date: today(),
    notes: '',
  });
  const [items, setItems] = useState<DraftItem[]>([]);
  const create = useMutation({
    mutationFn: () =>
      api.prescriptions.create({
        customer_id: patient?.id,
        patient_name: patient?.name ?? '',
        patient_phone: patient?.phone ?? '',
        ...form,
        patient_id_number: form.patient_id_number || patient?.national_id || '',
        items: items.map((i) => ({
          medicine_id: i.medicine.id,
          quantity: i.quantity,
          dosage: i.dosage,
          refills_allowed: i.medicine.is_controlled ? 0 : i.refills,
        })),
      }),
    onSuccess: (p) => {
      queryClient.invalidateQueries({ queryKey: ['prescriptions'] });
      onCreated(p.id);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const err = create.error;
  const field = fieldsFor(err);
  const setItem = (i: number, patch: Partial<DraftItem>) =>
    setItems((all) => all.map((it, j) => (j === i ? { ...it, ...patch } : it)));
  return (
    <Dialog title="New prescription" onClose={onClose}>
      {patient ? (
        <p className="notice info">
          Patient: <strong>{patient.name}</strong>{' '}
          <button type="button" onClick={() => setPatient(null)}>
            Change patient
          </button>
        </p>
      ) : (
        <fieldset className="plain">
          <legend>Patient</legend>
          <CustomerPicker
            pickLabel="Choose"
            onPick={(c) => setPatient({ id: c.id, name: c.name, phone: c.phone, national_id: c.national_id })}
          />
        </fieldset>
      )}
      <form onSubmit={submit} noValidate aria-label="Prescription details">
        <ErrorNotice error={err} />
        {fieldError(err, 'patient_name') && <p className="field-error">Choose the patient.</p>}
        <TextField label="Patient ID number" {...field('patient_id_number')} />
        <TextField label="Prescriber name" {...field('prescriber_name')} />
        <TextField label="Prescriber licence number" {...field('prescriber_licence_no')} />
        <TextField label="Facility" {...field('prescriber_facility')} />
        <TextField label="Issue date" type="date" {...field('issue_date')} />
        <fieldset className="plain">
          <legend>Items</legend>
          <MedicineSearch
            label="Add a medicine"
            onPick={(m) =>
              setItems((all) =>
                all.some((i) => i.medicine.id === m.id)
                  ? all
                  : [...all, { medicine: m, quantity: 1, dosage: '', refills: 0 }],
              )
            }
          />
          {fieldError(err, 'items') && <p className="field-error">{fieldError(err, 'items')}</p>}
          <ul className="pick-list" aria-label="Prescribed items">
            {items.map((it, i) => (
              <li key={it.medicine.id} className="rx-item">
                <strong>
                  {it.medicine.name} {it.medicine.strength}
                  {it.medicine.is_controlled && <span className="badge">Controlled</span>}
                </strong>
                <label>
                  Units
                  <input
                    type="number"
                    min={1}
                    aria-label={`Units of ${it.medicine.name}`}
                    value={it.quantity}
                    onChange={(e) =>
                      setItem(i, { quantity: Math.max(1, Math.floor(Number(e.target.value)) || 1) })
                    }
                  />
                </label>
                <label>
                  Dosage
                  <input
                    aria-label={`Dosage of ${it.medicine.name}`}
                    value={it.dosage}
                    onChange={(e) => setItem(i, { dosage: e.target.value })}
                  />
                </label>
                <button
                  type="button"
                  className="ghost"
                  aria-label={`Remove ${it.medicine.name}`}
                  onClick={() => setItems((all) => all.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create prescription
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function PrescriptionDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const [bin, setBin] = useState('');
  const rx = useQuery({ queryKey: ['prescription', id], queryFn: () => api.prescriptions.get(id) });
  const dispense = useMutation({
    mutationFn: async () => {
      await api.prescriptions.dispense(id, {});
      return api.dispensing.placeOnWillCall({ prescription_id: id, bin_location: bin.trim() || 'Counter' });
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['prescription', id] });
      queryClient.invalidateQueries({ queryKey: ['prescriptions'] });
      queryClient.invalidateQueries({ queryKey: ['will-call'] });
    },
  });
  const p = rx.data;
  const canDispense =
    allows(DISPENSERS, user.role) &&
    !!p &&
    (p.status === 'active' || p.status === 'partially_dispensed' || p.status === 'dispensed');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    dispense.mutate();
  };
  return (
    <Dialog title={p ? `Prescription for ${p.patient_name}` : 'Prescription'} onClose={onClose}>
      <ErrorNotice error={rx.error} />
      {p && (
        <>
          <p>
            {STATUS_LABELS[p.status] ?? p.status} · by {p.prescriber_name} ({p.prescriber_licence_no}) ·
            issued {p.issue_date}, valid until {p.valid_until}
          </p>
          <table aria-label="Prescription items">
            <thead>
              <tr>
                <th scope="col">Medicine</th>
                <th scope="col">Per fill</th>
                <th scope="col">Dispensed</th>
                <th scope="col">Remaining</th>
                <th scope="col">Refills</th>
              </tr>
            </thead>
            <tbody>
              {p.items.map((i) => (
                <tr key={i.id}>
                  <th scope="row">
                    {i.medicine_name} {i.strength}
                    {i.is_controlled && <span className="badge">Controlled</span>}
                    {i.dosage && <small className="muted block">{i.dosage}</small>}
                  </th>
                  <td>{i.quantity}</td>
                  <td>{i.dispensed_quantity}</td>
                  <td>{i.remaining_quantity}</td>
                  <td>
                    {i.refills_used}/{i.refills_allowed}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {dispense.data && (
            <p role="status" className="notice ok">
              Dispensed and placed on the will-call shelf at {dispense.data.bin_location}.
            </p>
          )}
          <ErrorNotice error={dispense.error} />
          {canDispense && !dispense.data && (
            <form onSubmit={submit} className="inline-add" aria-label="Dispense" noValidate>
              <TextField label="Shelf or bin" value={bin} onChange={setBin} placeholder="e.g. B-12" />
              <button type="submit" className="primary" disabled={dispense.isPending}>
                Dispense to will-call
              </button>
            </form>
          )}
          {allows(DISPENSERS, user.role) && (
            <p className="hint">
              Dispensing prepares the bag for the will-call shelf; nothing is handed over here. To hand it
              over, use <Link href="/sell">Sell</Link>: a hand-over is a sale (Pick up for a bag on the shelf,
              or sell with this prescription).
            </p>
          )}
          {p.dispensings.length > 0 && (
            <>
              <h3>Dispensings</h3>
              <ul>
                {p.dispensings.map((d) => (
                  <li key={d.id}>
                    {formatDateTime(d.created_at)}: {d.quantity} × {d.medicine_name} (fill {d.fill_number}) by{' '}
                    {d.pharmacist_name ?? '—'}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Dialog>
  );
}
