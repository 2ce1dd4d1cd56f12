import type { Medicine } from '@pharmacy/contracts';
import { api } from '../api';

/** Uploads a photo through the image routes (a signed upload URL, the bytes, then the attach) and attaches it. */
export async function uploadMedicinePhoto(medicineId: string, file: File): Promise<Medicine> {
  const target = await api.images.medicineUploadUrl({
    content_type: file.type as 'image/jpeg' | 'image/png' | 'image/webp',
    size_bytes: file.size,
  });
  const res = await fetch(target.uploadUrl, {
    method: 'PUT',
    headers: { 'Content-Type': file.type },
    body: file,
  });
  if (!res.ok)
    throw new Error(`The photo could not be uploaded (${res.status}); the medicine itself is saved.`);
  return api.images.attachToMedicine(medicineId, { image_key: target.key });
}
