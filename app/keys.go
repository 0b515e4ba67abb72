package app

import "context"

// LegacySigningKey returns the token signing key an older costdb kept in
// the store, or nil when there is none (or it was moved out already).
func (s *Service) LegacySigningKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.store.View(ctx, func(tx Tx) error {
		k, err := tx.Setting(settingSigningKey)
		key = k
		return err
	})
	if len(key) == 0 {
		return nil, err
	}
	return key, err
}

// ForgetLegacySigningKey blanks the signing key kept in the store, once it
// has been moved to the key file.
func (s *Service) ForgetLegacySigningKey(ctx context.Context) error {
	return s.store.Update(ctx, func(tx Tx) error { return tx.PutSetting(settingSigningKey, []byte{}) })
}
