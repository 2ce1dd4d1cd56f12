import type { OrganisationHeader } from './document-types';

/** Organisation and branch fields as the server puts them on sale / return JSON. */
export interface OrganisationFields {
  organization_name: string;
  organization_legal_name?: string | null;
  organization_phone?: string | null;
  organization_address?: string | null;
  organization_tin?: string | null;
  organization_vat_number?: string | null;
  branch_name?: string | null;
  branch_address?: string | null;
  branch_vat_number?: string | null;
  receipt_header?: string | null;
}

export function present(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function buildOrganisationHeader(input: OrganisationFields): OrganisationHeader {
  return {
    name: input.organization_name,
    legalName: present(input.organization_legal_name),
    address: present(input.organization_address),
    phone: present(input.organization_phone),
    tin: present(input.organization_tin),
    vatNumber: present(input.organization_vat_number),
    branchName: present(input.branch_name),
    branchAddress: present(input.branch_address),
    branchVatNumber: present(input.branch_vat_number),
    headerText: present(input.receipt_header),
  };
}
