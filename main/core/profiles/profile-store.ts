// Non-secret profile settings on disk: one JSON file, written atomically (temp file + rename) so a crash
// mid-write never leaves a half-written profiles file.
import { existsSync, readFileSync } from 'node:fs';
import { LOCAL_PROFILE_ID, type ProfileSettings } from '../../../shared/profiles';
import { writeJsonFile } from '../json-file';

export interface StoredProfile extends ProfileSettings {
  id: string;
  createdAt: number;
  updatedAt: number;
}

interface ProfilesFile {
  version: 1;
  activeId: string;
  profiles: StoredProfile[];
}

export class ProfileStore {
  private data: ProfilesFile;

  constructor(private readonly file: string) {
    this.data = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as ProfilesFile)
      : { version: 1, activeId: LOCAL_PROFILE_ID, profiles: [] };
  }

  get activeId(): string {
    return this.data.activeId;
  }

  list(): readonly StoredProfile[] {
    return this.data.profiles;
  }

  get(id: string): StoredProfile | undefined {
    return this.data.profiles.find((profile) => profile.id === id);
  }

  insert(profile: StoredProfile): void {
    this.data.profiles.push(profile);
    this.save();
  }

  replace(profile: StoredProfile): void {
    this.data.profiles = this.data.profiles.map((existing) =>
      existing.id === profile.id ? profile : existing,
    );
    this.save();
  }

  remove(id: string): void {
    this.data.profiles = this.data.profiles.filter((profile) => profile.id !== id);
    if (this.data.activeId === id) this.data.activeId = LOCAL_PROFILE_ID;
    this.save();
  }

  setActive(id: string): void {
    this.data.activeId = id;
    this.save();
  }

  private save(): void {
    writeJsonFile(this.file, this.data, 2);
  }
}
