import { PHARMACIST_ROLES } from '@pharmacy/contracts/roles';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import type { Cart, CartPrescription } from './cart';

const today = () => new Date().toLocaleDateString('en-CA');

/**
 * Asked before payment whenever the cart holds a prescription-only or controlled medicine, whoever sells: pick
 * the customer's prescription, record a new one, or (a pharmacist, no controlled medicine) an emergency supply
 * with its reason.
 */
export function PrescriptionDialog({
  cart,
  onPick,
  onClose,
}: {
  cart: Cart;
  onPick: (p: CartPrescription) => void;
  onClose: () => void;
}) {
  const user = useUser();
  const [patient, setPatient] = useState(cart.customer?.name ?? '');
  const [mode, setMode] = useState<'pick' | 'new' | 'emergency'>('pick');
  const needing = cart.lines.filter((l) => l.requires_prescription || l.is_controlled);
  const controlled = needing.some((l) => l.is_controlled);
  const list = useQuery({
    queryKey: ['prescriptions', 'for-sale', cart.customer?.id, patient.trim()],
    queryFn: () =>
      api.prescriptions.list(
        cart.customer
          ? { customer_id: cart.customer.id, page_size: 20 }
          : { patient: patient.trim(), page_size: 20 },
      ),
    enabled: !!cart.customer || patient.trim().length > 1,
  });
  const usable = (list.data?.items ?? []).filter(
    (p) => p.status === 'active' || p.status === 'partially_dispensed',
  );
  return (
    <Dialog title="Prescription needed" onClose={onClose}>
      <p>
        {needing.map((l) => l.name).join(', ')} {needing.length === 1 ? 'is' : 'are'} prescription-only. Pick
        the patient's prescription or record a new one.
      </p>
      <div className="form-actions">
        <button type="button" aria-pressed={mode === 'pick'} onClick={() => setMode('pick')}>
          Existing prescription
        </button>
        <button type="button" aria-pressed={mode === 'new'} onClick={() => setMode('new')}>
          Record a new prescription
        </button>
        {PHARMACIST_ROLES.includes(user.role) && !controlled && (
          <button type="button" aria-pressed={mode === 'emergency'} onClick={() => setMode('emergency')}>
            Emergency supply
          </button>
        )}
      </div>
      {mode === 'pick' && (
        <>
          {!cart.customer && (
            <TextField label="Patient" type="search" value={patient} onChange={setPatient} />
          )}
          <ErrorNotice error={list.error} />
          <ul className="pick-list" aria-label="Active prescriptions">
            {usable.map((p) => {
              const label = `${p.patient_name}, ${p.prescriber_name}, ${p.issue_date}`;
              return (
                <li key={p.id}>
                  <span>
                    <strong>{p.patient_name}</strong>{' '}
                    <span className="muted">
                      by {p.prescriber_name}, issued {p.issue_date}
                    </span>
                  </span>
                  <button
                    type="button"
                    onClick={() => onPick({ id: p.id, label })}
                    aria-label={`Use prescription of ${label}`}
                  >
                    Use
                  </button>
                </li>
              );
            })}
            {list.data && usable.length === 0 && <li className="muted">No active prescription found.</li>}
          </ul>
        </>
      )}
      {mode === 'new' && <NewPrescriptionForm cart={cart} patient={patient} onPick={onPick} />}
      {mode === 'emergency' && <EmergencySupplyForm patient={patient} onPick={onPick} />}
    </Dialog>
  );
}

/** Records the paper prescription the patient brought, for the cart's prescription-only lines, and uses it. */
function NewPrescriptionForm({
  cart,
  patient,
  onPick,
}: {
  cart: Cart;
  patient: string;
  onPick: (p: CartPrescription) => void;
}) {
  const [f, setF] = useState({
    patient_name: patient,
    patient_id_number: '',
    prescriber_name: '',
    prescriber_licence_no: '',
    issue_date: today(),
  });
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const create = useMutation({
    mutationFn: () =>
      api.prescriptions.create({
        ...f,
        ...(cart.customer ? { customer_id: cart.customer.id } : {}),
        items: cart.lines
          .filter((l) => l.requires_prescription || l.is_controlled)
          .map((l) => ({ medicine_id: l.medicine_id, quantity: l.quantity })),
      }),
    onSuccess: (p) => onPick({ id: p.id, label: `${p.patient_name}, ${p.prescriber_name}, ${p.issue_date}` }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!create.isPending) create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New prescription">
      <TextField label="Patient name" value={f.patient_name} onChange={set('patient_name')} required />
      <TextField label="Patient ID number" value={f.patient_id_number} onChange={set('patient_id_number')} />
      <TextField label="Prescriber" value={f.prescriber_name} onChange={set('prescriber_name')} required />
      <TextField
        label="Prescriber licence number"
        value={f.prescriber_licence_no}
        onChange={set('prescriber_licence_no')}
        required
      />
      <TextField label="Issued on" type="date" value={f.issue_date} onChange={set('issue_date')} required />
      <ErrorNotice error={create.error} />
      <button type="submit" className="primary" disabled={create.isPending}>
        Record and use
      </button>
    </form>
  );
}

/** A pharmacist's emergency supply without a prescription: who it is for and why; the sale records it. */
function EmergencySupplyForm({
  patient,
  onPick,
}: {
  patient: string;
  onPick: (p: CartPrescription) => void;
}) {
  const [patientName, setPatientName] = useState(patient);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!patientName.trim() || !reason.trim()) {
      setProblem('Give the patient and the reason for the emergency supply.');
      return;
    }
    onPick({
      id: null,
      label: `Emergency supply for ${patientName.trim()}`,
      emergency: { reason: reason.trim(), patient_name: patientName.trim() },
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Emergency supply">
      <TextField label="Patient name" value={patientName} onChange={setPatientName} required />
      <TextField
        label="Reason for supplying without a prescription"
        value={reason}
        onChange={setReason}
        required
      />
      {problem && <p role="alert">{problem}</p>}
      <button type="submit" className="primary">
        Supply and pay
      </button>
    </form>
  );
}
